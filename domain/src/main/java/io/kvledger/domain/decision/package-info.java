/**
 * {@code Decider.decide(state, command)}: the guards in the contract's order of precedence and the
 * events each accepted command emits; a rejection changes no state.
 */
package io.kvledger.domain.decision;
