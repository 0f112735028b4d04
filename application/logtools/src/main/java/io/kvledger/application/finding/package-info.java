/**
 * The one vocabulary of findings: a {@code Finding} (a broken rule at an event) and its typed
 * {@code FindingCode}, shared by the audit, the log checks, the simulator, the shrinker and the fleet.
 */
package io.kvledger.application.finding;
