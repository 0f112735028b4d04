package io.kvledger.containers;

/**
 * A {@code long[]} shared by the versions of a value under the {@link SharedArray} protocol. Its holders read
 * {@link #slots} directly; they write only the slots {@link #forAppend} handed them.
 */
public final class SharedLongs extends SharedArray<SharedLongs> {

    /** Holds nothing and never changes (an append copies it). */
    public static final SharedLongs EMPTY = new SharedLongs(new long[0], 0);

    /** The array: a version reads its window, and writes only past its end and only when {@link #forAppend} gave it this array. */
    public final long[] slots;

    /** The array {@code slots}, its first {@code claimed} slots held; the caller hands it over and writes it no more. */
    public SharedLongs(long[] slots, int claimed) {
        super(claimed);
        this.slots = slots;
    }

    @Override
    protected int length() {
        return slots.length;
    }

    @Override
    protected SharedLongs copy(int from, int to, int length) {
        long[] copy = new long[length];
        System.arraycopy(slots, from, copy, 0, to - from);
        return new SharedLongs(copy, 0);
    }
}
