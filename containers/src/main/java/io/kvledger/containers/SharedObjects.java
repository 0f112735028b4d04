package io.kvledger.containers;

/** An {@code Object[]} shared by the versions of a value under the {@link SharedArray} protocol ({@link AppendOnlyList}). */
final class SharedObjects extends SharedArray<SharedObjects> {

    /** Holds nothing and never changes (an append copies it). */
    static final SharedObjects EMPTY = new SharedObjects(new Object[0], 0);

    final Object[] slots;

    SharedObjects(Object[] slots, int claimed) {
        super(claimed);
        this.slots = slots;
    }

    @Override
    protected int length() {
        return slots.length;
    }

    @Override
    protected SharedObjects copy(int from, int to, int length) {
        Object[] copy = new Object[length];
        System.arraycopy(slots, from, copy, 0, to - from);
        return new SharedObjects(copy, 0);
    }
}
