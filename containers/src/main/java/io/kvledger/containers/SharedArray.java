package io.kvledger.containers;

/**
 * The append-in-place protocol, one for every value that grows at its end: the versions of such a value (each a
 * window {@code [from, to)} over one array) share the array they grew from, and the array remembers how far some
 * version has claimed it. A version may write past its end in place only while no other version has, that is
 * while it ends where the claim ends (it is the newest holding the array), and the array has room; otherwise it
 * copies its own window into a new array, at least twice its length, so the array follows the value's length,
 * not its history. What a version can see is never written again, so an older version never changes.
 *
 * <p>The claim takes no lock: the versions of one array grow on one thread (in kvledger, the one that folds the
 * state). A subclass holds the array itself, of its own element type ({@link SharedLongs}, a {@code long[]}; an
 * {@code Object[]} for {@link AppendOnlyList}), so that reading a slot is a plain array read.
 *
 * @param <S> the subclass, which {@link #forAppend} returns
 */
public abstract class SharedArray<S extends SharedArray<S>> {

    /** How far some version has written: a version that ends here may append in place. */
    private int claimed;

    /** An array whose first {@code claimed} slots some version holds. */
    protected SharedArray(int claimed) {
        this.claimed = claimed;
    }

    /** How many slots the array has. */
    protected abstract int length();

    /** A new array of this kind, {@code length} slots long, holding this one's slots {@code [from, to)} at {@code [0, to - from)}. */
    protected abstract S copy(int from, int to, int length);

    /**
     * The array the version {@code [from, to)} of this one writes {@code count} more slots into: this array, when
     * the version may append in place (it ends where the claim ends and the array has room; the claim then moves
     * to {@code to + count}), else a new array holding the version's slots at {@code [0, to - from)}, with room
     * for {@code count} more, claimed through them. The version's first slot is at {@code from} in this array, at
     * {@code 0} in a new one ({@link #start}); the caller writes the new slots after its last.
     */
    @SuppressWarnings("unchecked")
    public final S forAppend(int from, int to, int count) {
        int end = to + count;
        if (claimed == to && end <= length()) {
            claimed = end;
            return (S) this;
        }
        int size = to - from;
        S grown = copy(from, to, Math.max(size + count, Math.max(4, 2 * size)));
        ((SharedArray<S>) grown).claimed = size + count;
        return grown;
    }

    /** Where a version that started at {@code from} in {@code before} starts in {@code after}, which {@link #forAppend} gave. */
    public static int start(SharedArray<?> before, SharedArray<?> after, int from) {
        return after == before ? from : 0;
    }
}
