/**
 * The commands of the scenario format (contract section 2), as records under one sealed interface.
 */
package io.kvledger.domain.command;
