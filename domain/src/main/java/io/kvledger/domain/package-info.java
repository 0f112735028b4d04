/**
 * The rules: {@code decide} (reads the state, changes nothing) and the fold ({@link io.kvledger.domain.EngineFold}),
 * the only code that changes the state, split by concern. Plain Java, no framework. The fold changes the state
 * in place, on its one owner's thread; what must look back re-folds from a copy
 * ({@link io.kvledger.domain.state.EngineState#copy()}).
 */
package io.kvledger.domain;
