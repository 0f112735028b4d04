/**
 * {@code kvledger serve}: the embedding API as a local sidecar for hosts in any language (JSON Lines over a
 * Unix domain socket or standard streams, one engine, one client at a time; docs/serve-protocol.md).
 */
package io.kvledger.infrastructure.serve;
