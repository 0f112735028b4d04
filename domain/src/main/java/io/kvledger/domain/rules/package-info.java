/**
 * The arithmetic of the rules shared by the decider, the fold and the log tools: the token bound,
 * storable chunks, lookups and loads.
 */
package io.kvledger.domain.rules;
