/**
 * The state folded from events: requests, the CPU tier, jobs and fences, block hashes. Its one owner, the thread
 * that folds events into it, changes its maps, tier, requests and retired requests in place; nothing keeps an older
 * state readable, so what looks back re-folds from {@link io.kvledger.domain.state.EngineState#copy()} or from
 * a stored base. The other values the containers hold (jobs, chunks, a fence's
 * {@link io.kvledger.domain.state.JobIds}, a request's tables and hashes) are immutable; a request's block tables and hashes grow in place where
 * no older value can see it. The generic containers the state is built of (its maps, the hashes' list and the
 * shared arrays) are in {@code io.kvledger.containers}; this package holds the
 * state's records and the rules of its own values.
 */
package io.kvledger.domain.state;
