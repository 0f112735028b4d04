/**
 * The engine's config (geometry, workers, tier capacity, release policy, offload bounds) and its
 * defaults.
 */
package io.kvledger.domain.config;
