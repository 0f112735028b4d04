/**
 * The scenario format: the reader (config line, commands, malformed lines named by number) and the
 * writer.
 */
package io.kvledger.infrastructure.scenario;
