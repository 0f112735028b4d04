/**
 * The events of the event log (contract section 3), as records under one sealed interface, with the
 * rejection codes and reasons they carry.
 */
package io.kvledger.domain.event;
