/**
 * The checks run on every event of a live or simulated run: the audit's rules plus the ones the audit
 * does not name, as one {@code LogCheck}.
 */
package io.kvledger.application.check;
