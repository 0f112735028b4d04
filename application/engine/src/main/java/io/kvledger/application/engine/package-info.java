/**
 * The domain adapted to Axon: the one engine aggregate, the one command per scheduler step and its
 * result. Decisions and state changes stay the domain's.
 */
package io.kvledger.application.engine;
