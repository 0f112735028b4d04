/**
 * {@code kvledger shrink}: reduces a scenario whose run shows a code to a minimal one that still does.
 */
package io.kvledger.simulation.shrink;
