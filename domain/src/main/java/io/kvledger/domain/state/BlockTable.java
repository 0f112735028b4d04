package io.kvledger.domain.state;

import io.kvledger.containers.SharedArray;
import io.kvledger.containers.SharedLongs;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A block table {@code T_g}: GPU block ids in allocation order, where an entry may be {@code null} (a
 * sliding-window position the host does not back, or freed; contract section 7.2). An immutable list.
 *
 * <p>Every version is a range over one array shared with the versions it grew from ({@link SharedLongs}, under
 * the containers' one append-in-place protocol, {@link SharedArray}). A version writes past its end in place
 * only while no other version has (it is the newest holding the array); otherwise it copies. What a version can
 * see is never written again, so an older value (the request {@code decide} builds to judge an event, a request
 * of a {@link EngineState#copy() copy} of the state) never changes. The claim takes no lock: the versions of one
 * array grow on one thread, the one that folds the state. Dropping a prefix, what a release names, is a
 * narrower range over the same array.
 *
 * <p>Entries are {@code long}s so that the null entry has a value no block id can take: a foreign log
 * may name any {@code int}, negative ones included, so no {@code int} is free to mean "none".
 *
 * <p>The table's leading null entries are counted, not stored: its stored range begins at its first block. A
 * sliding-window table frees its oldest block first, so freeing the block at the front is a narrower range over the
 * same array, and a block is looked for among the entries past the freed ones, the window's: what a free and a
 * look-up cost does not grow with the request's length (a request of 4,096 tokens held 256 entries per table, all
 * but eight of them freed, and each free copied them all).
 */
public final class BlockTable extends AbstractList<Integer> implements RandomAccess {

    public static final BlockTable EMPTY = new BlockTable(SharedLongs.EMPTY, 0, 0, 0);

    private static final long NULL = Long.MIN_VALUE;

    private final SharedLongs shared;
    /** The leading null entries, not stored: entry {@code i >= nulls} is slot {@code from + i - nulls}. */
    private final int nulls;
    /** The stored range; its first slot, when it has one, is a block (never {@link #NULL}). */
    private final int from;
    private final int to;

    private BlockTable(SharedLongs shared, int nulls, int from, int to) {
        this.shared = shared;
        this.nulls = nulls;
        this.from = from;
        this.to = to;
    }

    /** The table of {@code nulls} null entries and then the slots {@code [from, to)}, their own leading nulls counted. */
    private static BlockTable made(SharedLongs shared, int nulls, int from, int to) {
        while (from < to && shared.slots[from] == NULL) {
            from++;
            nulls++;
        }
        return nulls == 0 && from == to ? EMPTY : new BlockTable(shared, nulls, from, to);
    }

    /** A table of {@code blocks} in their order ({@code null} entries kept). */
    public static BlockTable of(List<Integer> blocks) {
        if (blocks instanceof BlockTable table) {
            return table;
        }
        return blocks.isEmpty() ? EMPTY : EMPTY.appendAll(blocks);
    }

    public static BlockTable of(Integer... blocks) {
        return of(Arrays.asList(blocks));
    }

    /** This table followed by {@code added}; this one is left as it was. */
    public BlockTable appendAll(List<Integer> added) {
        int count = added.size();
        if (count == 0) {
            return this;
        }
        SharedLongs target = shared.forAppend(from, to, count);
        int start = SharedArray.start(shared, target, from);
        int end = start + (to - from);
        write(added, target.slots, end);
        return made(target, nulls, start, end + count);
    }

    private static void write(List<Integer> added, long[] slots, int at) {
        for (int i = 0; i < added.size(); i++) {
            Integer block = added.get(i);
            slots[at + i] = block == null ? NULL : block;
        }
    }

    /** Without its first {@code count} entries (all of them when it has fewer). */
    public BlockTable drop(int count) {
        if (count <= 0) {
            return this;
        }
        if (count >= size()) {
            return EMPTY;
        }
        return count <= nulls ? new BlockTable(shared, nulls - count, from, to) : made(shared, 0, from + count - nulls, to);
    }

    /** Entries {@code [start, end)}, as Vavr's {@code subSequence}. */
    public BlockTable subSequence(int start, int end) {
        if (start < 0 || end > size() || start > end) {
            throw new IndexOutOfBoundsException("subSequence(" + start + ", " + end + ") of a table of " + size());
        }
        if (start == end) {
            return EMPTY;
        }
        int leading = Math.max(0, Math.min(end, nulls) - start);
        return made(shared, leading, from + Math.max(0, start - nulls), from + Math.max(0, end - nulls));
    }

    /**
     * This table with entry {@code index} set to {@code block} ({@code null}: the null entry). Freeing the first
     * block (a window's oldest) shares this table's array; any other change copies it.
     */
    public BlockTable update(int index, Integer block) {
        checkIndex(index);
        long value = block == null ? NULL : block;
        if (index >= nulls) {
            int at = from + index - nulls;
            if (value == NULL && at == from) {
                return made(shared, nulls + 1, from + 1, to);
            }
        } else if (value == NULL) {
            return this; // a null entry already
        }
        long[] slots = new long[size()];
        Arrays.fill(slots, 0, nulls, NULL);
        System.arraycopy(shared.slots, from, slots, nulls, to - from);
        slots[index] = value;
        return made(new SharedLongs(slots, slots.length), 0, 0, slots.length);
    }

    /** The entries that are not {@code null}, in order; this table itself when it has no null entry. */
    public BlockTable withoutNulls() {
        if (!hasNull()) {
            return this;
        }
        long[] slots = new long[to - from];
        int kept = 0;
        for (int i = from; i < to; i++) {
            if (shared.slots[i] != NULL) {
                slots[kept++] = shared.slots[i];
            }
        }
        return kept == 0 ? EMPTY : new BlockTable(new SharedLongs(slots, kept), 0, 0, kept);
    }

    @Override
    public Integer get(int index) {
        checkIndex(index);
        if (index < nulls) {
            return null;
        }
        long slot = shared.slots[from + index - nulls];
        return slot == NULL ? null : (int) slot;
    }

    /** Whether entry {@code index} is the null entry. */
    public boolean isNull(int index) {
        checkIndex(index);
        return index < nulls || shared.slots[from + index - nulls] == NULL;
    }

    /** Whether entry {@code index} is block {@code block} (never true of a null entry). */
    public boolean isBlock(int index, int block) {
        checkIndex(index);
        return index >= nulls && shared.slots[from + index - nulls] == block;
    }

    @Override
    public int size() {
        return nulls + to - from;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    public boolean hasNull() {
        return indexOf(null) >= 0;
    }

    /** Whether some entry names a block: the stored range begins with one when it is not empty. */
    public boolean hasBlock() {
        return from < to;
    }

    @Override
    public int indexOf(Object block) {
        long wanted = slotOf(block);
        if (wanted == NULL) {
            if (block != null) {
                return -1;
            }
            if (nulls > 0) {
                return 0;
            }
        }
        for (int i = from; i < to; i++) {
            if (shared.slots[i] == wanted) {
                return nulls + i - from;
            }
        }
        return -1;
    }

    @Override
    public int lastIndexOf(Object block) {
        long wanted = slotOf(block);
        if (wanted == NULL && block != null) {
            return -1;
        }
        for (int i = to - 1; i >= from; i--) {
            if (shared.slots[i] == wanted) {
                return nulls + i - from;
            }
        }
        return wanted == NULL ? nulls - 1 : -1;
    }

    @Override
    public boolean contains(Object block) {
        return indexOf(block) >= 0;
    }

    /**
     * This table as a plain {@code java.util.List} view, as Vavr's {@code asJava()}: not a copy, and written
     * as a Java list ({@code [1, 2]}), which is how messages that name a table's blocks have always read.
     */
    public List<Integer> asJava() {
        return new JavaView(this);
    }

    private static final class JavaView extends AbstractList<Integer> implements RandomAccess {
        private final BlockTable table;

        private JavaView(BlockTable table) {
            this.table = table;
        }

        @Override
        public Integer get(int index) {
            return table.get(index);
        }

        @Override
        public int size() {
            return table.size();
        }

        @Override
        public int indexOf(Object block) {
            return table.indexOf(block);
        }

        @Override
        public int lastIndexOf(Object block) {
            return table.lastIndexOf(block);
        }

        @Override
        public boolean contains(Object block) {
            return table.contains(block);
        }
    }

    /**
     * Its blocks as an immutable list ({@code List.of}'s, which a per-group field takes as it is), or {@code null}
     * when an entry is {@code null}: one pass, each id boxed once (a release names every block of its table).
     */
    public List<Integer> immutableBlocks() {
        if (nulls > 0) {
            return null;
        }
        Integer[] blocks = new Integer[to - from];
        for (int i = from; i < to; i++) {
            long slot = shared.slots[i];
            if (slot == NULL) {
                return null;
            }
            blocks[i - from] = (int) slot;
        }
        return List.of(blocks);
    }

    /** A mutable copy, as Vavr's {@code toJavaList()}. */
    public List<Integer> toJavaList() {
        return new java.util.ArrayList<>(this);
    }

    /** Two tables of the same entries count the same leading nulls (each stored range begins at its first block). */
    @Override
    public boolean equals(Object other) {
        if (other instanceof BlockTable table) {
            return this == table || nulls == table.nulls
                    && Arrays.equals(shared.slots, from, to, table.shared.slots, table.from, table.to);
        }
        return super.equals(other);
    }

    @Override
    public int hashCode() {
        int hash = 1;
        for (int i = 0; i < nulls; i++) {
            hash = 31 * hash;
        }
        for (int i = from; i < to; i++) {
            long slot = shared.slots[i];
            hash = 31 * hash + (slot == NULL ? 0 : Integer.hashCode((int) slot));
        }
        return hash;
    }

    /** As Vavr's {@code Vector} wrote itself: the state's text ({@code EngineState.toString}) stays as it was. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Vector(");
        for (int i = 0; i < size(); i++) {
            if (i > 0) {
                text.append(", ");
            }
            Integer block = get(i);
            text.append(block == null ? "null" : Integer.toString(block));
        }
        return text.append(')').toString();
    }

    /** The entry's slot value; {@link #NULL} for {@code null} and for anything that is not an {@code Integer}. */
    private static long slotOf(Object block) {
        return block instanceof Integer id ? id : NULL;
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("index " + index + " of a table of " + size());
        }
    }
}
