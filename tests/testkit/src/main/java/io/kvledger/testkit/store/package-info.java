/**
 * The storage contract suite: what every event storage engine under a ledger must do, for a store of a
 * user's own to be held to.
 */
package io.kvledger.testkit.store;
