/**
 * The scripted host: runs a scenario file (a config line, then commands) through the embedding API
 * as {@code kvledger run} does, step by step, handing on each step's events. The testkit's scenario
 * folders and the shrinker run scenarios through it.
 */
package io.kvledger.simulation.host;
