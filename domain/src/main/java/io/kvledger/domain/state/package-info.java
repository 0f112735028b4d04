/**
 * The immutable state folded from events: requests, the CPU tier, jobs and fences, block hashes, kept
 * in persistent collections.
 */
package io.kvledger.domain.state;
