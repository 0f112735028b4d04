/**
 * Generic containers, apart from the rules: maps changed in place by their one owner that iterate, print and
 * snapshot in key order ({@link io.kvledger.containers.StateHashMap}, {@link io.kvledger.containers.StateTreeMap}).
 * Plain Java, depending on nothing; they know no request, job or block, and take no lock (their owner is one
 * thread).
 */
package io.kvledger.containers;
