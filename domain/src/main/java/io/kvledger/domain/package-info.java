/**
 * The rules: {@code decide} (reads the state, changes nothing) and the fold ({@link io.kvledger.domain.EngineFold}),
 * the only code that changes the state, split by concern. Plain Java, no framework. The fold changes the state
 * in place and keeps undo, so an older version still reads as it was.
 */
package io.kvledger.domain;
