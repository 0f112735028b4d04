package io.kvledger.domain.state;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable list of strings that grows at the end in amortised constant time per element: every
 * version is a length over one array shared with the versions it grew from. A version may write past
 * its end in place only while no other version has (it is the newest holding the array); otherwise it
 * copies. What a version can see, its first {@code size} slots, is never written again, so old
 * versions never change. The claim takes no lock: the versions of one array grow on one thread.
 */
final class AppendOnlyStrings extends AbstractList<String> implements RandomAccess {

    static final AppendOnlyStrings EMPTY = new AppendOnlyStrings(new Shared(new String[0], 0), 0);

    /** The array and how much of it some version has claimed; a version appends in place only where it ends at the claim. */
    private static final class Shared {
        private final String[] slots;
        private int claimed;

        private Shared(String[] slots, int claimed) {
            this.slots = slots;
            this.claimed = claimed;
        }
    }

    private final Shared shared;
    private final int size;

    private AppendOnlyStrings(Shared shared, int size) {
        this.shared = shared;
        this.size = size;
    }

    static AppendOnlyStrings of(List<String> values) {
        if (values.isEmpty()) {
            return EMPTY;
        }
        String[] slots = new String[values.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = java.util.Objects.requireNonNull(values.get(i), "a hash is never null");
        }
        return new AppendOnlyStrings(new Shared(slots, slots.length), slots.length);
    }

    /** This list followed by {@code more}; this one is left as it was. */
    AppendOnlyStrings plus(String[] more) {
        if (more.length == 0) {
            return this;
        }
        int grown = size + more.length;
        if (shared.claimed == size && grown <= shared.slots.length) {
            System.arraycopy(more, 0, shared.slots, size, more.length);
            shared.claimed = grown;
            return new AppendOnlyStrings(shared, grown);
        }
        String[] slots = Arrays.copyOf(shared.slots, Math.max(grown, Math.max(4, size * 2)));
        // Slots past this version's end may hold another version's strings: this copy never shows them.
        Arrays.fill(slots, size, slots.length, null);
        System.arraycopy(more, 0, slots, size, more.length);
        return new AppendOnlyStrings(new Shared(slots, grown), grown);
    }

    @Override
    public String get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " of " + size + " hashes");
        }
        return shared.slots[index];
    }

    @Override
    public int size() {
        return size;
    }
}
