/**
 * Fleet processing: nodes share a view's segments through Axon's JDBC token store and pooled streaming
 * processor, and build the fleet's projections (which engine's CPU tier holds which chunk keys; a
 * continuous audit per engine) in the processor's transaction.
 */
package io.kvledger.infrastructure.fleet;
