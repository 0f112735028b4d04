/**
 * Axon Framework configured for the engine without Spring or Axon Server: the configuration, the
 * strong aggregate cache, and the stores the engine ships ({@code mem:}, {@code none:}).
 */
package io.kvledger.application.axon;
