/**
 * Given-when-then tests of the engine over the embedding API: {@link
 * io.kvledger.testkit.LedgerFixture}, its then checks and side-by-side failure messages.
 */
package io.kvledger.testkit;
