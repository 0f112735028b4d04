/**
 * The state folded from events: requests, the CPU tier, jobs and fences, block hashes. The fold changes
 * its maps, tables and tier in place and keeps undo for what it replaced, so an older version still reads
 * as it was.
 */
package io.kvledger.domain.state;
