/**
 * The contract's JSON: events serialized straight from their records, type names, UTF-8 line reading.
 */
package io.kvledger.infrastructure.json;
