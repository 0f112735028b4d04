/**
 * The event log format: the writer, the strict reader with its schema, and upcasting of older
 * revisions.
 */
package io.kvledger.infrastructure.log;
