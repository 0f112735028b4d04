/**
 * The pure rules: the fold ({@link io.kvledger.domain.EngineFold}) that is the only way state changes,
 * split by concern. Plain Java over immutable state, no framework.
 */
package io.kvledger.domain;
