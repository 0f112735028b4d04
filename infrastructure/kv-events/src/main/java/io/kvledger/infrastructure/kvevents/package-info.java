/**
 * The CPU tier's changes as vLLM KV-cache events for KV-aware routers: the translation from an engine's
 * events, vLLM's msgpack encoding, and a ZeroMQ publisher (a step listener) with vLLM's replay socket.
 */
package io.kvledger.infrastructure.kvevents;
