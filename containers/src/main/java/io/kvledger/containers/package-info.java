/**
 * Generic containers, apart from the rules: maps changed in place by their one owner that iterate, print and
 * snapshot in key order ({@link io.kvledger.containers.StateHashMap}, {@link io.kvledger.containers.StateTreeMap}),
 * the first on an open-addressing table over flat arrays ({@link io.kvledger.containers.OpenHashTable});
 * an append-only list that grows at its end in place ({@link io.kvledger.containers.AppendOnlyList}); and the one
 * append-in-place protocol it and the domain's block tables share ({@link io.kvledger.containers.SharedArray}: a version writes past its
 * end only where no other version has). Plain Java, depending on nothing; they know no request, job or block, and
 * take no lock (their owner is one thread).
 */
package io.kvledger.containers;
