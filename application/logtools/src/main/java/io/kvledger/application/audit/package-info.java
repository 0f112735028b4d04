/**
 * The audit of a captured event log: every rule of contract section 4 re-derived from the domain's
 * fold, and the violations found, with their codes.
 */
package io.kvledger.application.audit;
