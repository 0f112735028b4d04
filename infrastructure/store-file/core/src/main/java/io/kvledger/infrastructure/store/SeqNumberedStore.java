package io.kvledger.infrastructure.store;

/**
 * A store that knows the seq of its last event without reading it back: the store file, and a store
 * directory (whose first segments retention may have dropped, so counting its events would fall short).
 */
public interface SeqNumberedStore {

    /** The seq of the last event appended (0 when empty). */
    long lastSeq();
}
