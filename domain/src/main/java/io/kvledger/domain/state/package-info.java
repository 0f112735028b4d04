/**
 * The state folded from events: requests, the CPU tier, jobs and fences, block hashes. Its one owner, the thread
 * that folds events into it, changes its maps, tier and retired requests in place; nothing keeps an older
 * state readable, so what looks back re-folds from {@link io.kvledger.domain.state.EngineState#copy()} or from
 * a stored base. The values the containers hold (requests, jobs, chunks) are immutable.
 */
package io.kvledger.domain.state;
