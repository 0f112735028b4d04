package io.kvledger.domain.state;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Iterator;
import java.util.List;

/**
 * The chained block hash: SHA-256 of the previous block's hash (its ASCII hex; nothing for the first
 * block) followed by the block's token ids as 4-byte big-endian ints, cut to 128 bits and written as
 * lower-case hex. 128 bits keep collisions out of reach while the keys stay short enough to read in a
 * log. Each call of {@link #blocks} hashes into scratch buffers and a digest of its own (a clone of one never
 * updated): nothing is shared between folds or threads. (A process-wide table of the hashes made lately saved about
 * a tenth of an audit's CPU under C1 and nothing measurable under C2: docs/performance.md, "Block hashes".)
 *
 * <p>A {@link #remembering()} instance belongs to one thread ({@link PromptHasher}'s) and keeps its buffers and
 * the blocks it made lately, direct-mapped by the previous hash and the block's tokens: a block made again (the
 * shared prefix of another prompt) is taken from there, the very same string, without SHA-256.
 */
final class ChainHash {

    private static final String HEX = "0123456789abcdef";
    private static final int HEX_LENGTH = 32;

    /**
     * Never updated, only cloned: a clone of a fresh digest is its own digest without the provider look-up of
     * {@code getInstance}, which cost up to a seventh of a decode step (docs/performance.md).
     */
    private static final MessageDigest FRESH_SHA256 = sha256();

    private final MessageDigest digest = freshDigest();
    private byte[] previous = new byte[HEX_LENGTH];
    private final byte[] digestOut = new byte[32];
    private byte[] block = new byte[64];
    private int[] ints = new int[16];

    /**
     * At most this many ints of remembered blocks' tokens (a megabyte): the memo holds 4,096 blocks of up to 64
     * tokens, fewer of longer ones. 4,096 blocks caught 46 % of the prompt blocks of s20k (all repeats: 47 %).
     */
    private static final int MEMO_INTS = 1 << 18;
    private static final int MEMO_MOST_BLOCKS = 4096;

    /** Whether this instance remembers the blocks it made; the memo itself is made at the first block. */
    private final boolean remembers;
    /**
     * Per slot, at {@code slot * (memoBlockSize + 1)}: the previous hash's {@code hashCode} and the block's tokens, side
     * by side, so a slot holding another block is told apart within one cache line, without reading a string.
     */
    private int[] memoKeys;
    /** Per slot: the hash the block was chained from (null: an empty slot), and its hash. */
    private String[] memoPrevious;
    private String[] memoHash;
    private int memoBlockSize;
    private int memoShift;

    private ChainHash(boolean remembers) {
        this.remembers = remembers;
    }

    /** A hasher for one thread that keeps its buffers and the blocks it made lately. */
    static ChainHash remembering() {
        return new ChainHash(true);
    }

    /**
     * The hashes of the {@code count} blocks that {@code tail} followed by {@code tokens} complete,
     * chained from {@code last} (the hash of the block before them, or "" for none).
     */
    static String[] blocks(String last, IntTail tail, List<Integer> tokens, int blockSize, int count) {
        return new ChainHash(false).chain(last, tail, tokens, blockSize, count);
    }

    /** {@link #blocks}, by this hasher: from its memo where it made a block already. */
    String[] chain(String last, IntTail tail, List<Integer> tokens, int blockSize, int count) {
        if (ints.length < blockSize) {
            ints = new int[blockSize];
            block = new byte[4 * blockSize];
        }
        String[] hashes = new String[count];
        String previousHash = last;
        int previousLength = -1; // the length of previousHash's bytes in previous, or -1 when they are not there
        Iterator<Integer> next = tokens.iterator();
        for (int made = 0; made < count; made++) {
            int at = 0;
            if (made == 0) {
                for (int i = 0; i < tail.size(); i++) {
                    ints[at++] = tail.token(i);
                }
            }
            while (at < blockSize) {
                ints[at++] = next.next();
            }
            int slot = remembers ? slot(previousHash, blockSize) : -1;
            String hash = slot < 0 ? null : recalled(slot, previousHash, blockSize);
            if (hash == null) {
                if (previousLength < 0) {
                    previousLength = bytesOf(previousHash);
                }
                for (int i = 0; i < blockSize; i++) {
                    put(block, 4 * i, ints[i]);
                }
                hash = hash(previousLength, blockSize);
                previousLength = HEX_LENGTH; // hash() left the new hash's bytes in previous
                if (slot >= 0) {
                    remember(slot, previousHash, hash, blockSize);
                }
            } else {
                previousLength = -1; // previous holds the bytes of an older hash
            }
            hashes[made] = hash;
            previousHash = hash;
        }
        return hashes;
    }

    /**
     * The memo's slot of the block in {@code ints} chained from {@code previousHash} (the memo made anew for a new
     * block size), or -1 for a block too long to remember.
     */
    private int slot(String previousHash, int blockSize) {
        if (blockSize > MEMO_INTS / 16) {
            return -1; // blocks this long are remembered by no one: too few would fit
        }
        if (memoBlockSize != blockSize) {
            int slots = Math.min(MEMO_MOST_BLOCKS, Math.max(64, Integer.highestOneBit(MEMO_INTS / blockSize)));
            memoKeys = new int[slots * (blockSize + 1)];
            memoPrevious = new String[slots];
            memoHash = new String[slots];
            memoBlockSize = blockSize;
            memoShift = 32 - Integer.numberOfTrailingZeros(slots);
        }
        int h = previousHash.hashCode();
        for (int i = 0; i < blockSize; i++) {
            h = 31 * h + ints[i];
        }
        return (h * 0x9E3779B9) >>> memoShift; // Fibonacci hashing: the high bits, well mixed
    }

    /** The hash the memo holds for this block, or {@code null} when its slot holds another block. */
    private String recalled(int slot, String previousHash, int blockSize) {
        int at = slot * (blockSize + 1);
        if (memoKeys[at] != previousHash.hashCode()) {
            return null;
        }
        for (int i = 0; i < blockSize; i++) {
            if (memoKeys[at + 1 + i] != ints[i]) {
                return null;
            }
        }
        String previous = memoPrevious[slot];
        boolean same = previous == previousHash || previous != null && previous.equals(previousHash);
        return same ? memoHash[slot] : null;
    }

    private void remember(int slot, String previousHash, String hash, int blockSize) {
        int at = slot * (blockSize + 1);
        memoKeys[at] = previousHash.hashCode();
        System.arraycopy(ints, 0, memoKeys, at + 1, blockSize);
        memoPrevious[slot] = previousHash;
        memoHash[slot] = hash;
    }

    /** Puts {@code hash}'s bytes (hex: ASCII) in {@code previous}; returns their length. */
    private int bytesOf(String hash) {
        int length = hash.length();
        if (previous.length < length) {
            previous = new byte[length]; // only a hash not made here is longer
        }
        for (int i = 0; i < length; i++) {
            previous[i] = (byte) hash.charAt(i);
        }
        return length;
    }

    private String hash(int previousLength, int blockSize) {
        digest.reset();
        digest.update(previous, 0, previousLength);
        digest.update(block, 0, 4 * blockSize);
        try {
            digest.digest(digestOut, 0, digestOut.length);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 writes 32 bytes", e);
        }
        for (int i = 0; i < 16; i++) {
            previous[2 * i] = (byte) HEX.charAt((digestOut[i] >> 4) & 0xf);
            previous[2 * i + 1] = (byte) HEX.charAt(digestOut[i] & 0xf);
        }
        return new String(previous, 0, HEX_LENGTH, StandardCharsets.ISO_8859_1);
    }

    private static int put(byte[] into, int at, int token) {
        into[at] = (byte) (token >>> 24);
        into[at + 1] = (byte) (token >>> 16);
        into[at + 2] = (byte) (token >>> 8);
        into[at + 3] = (byte) token;
        return at + 4;
    }

    private static MessageDigest freshDigest() {
        try {
            return (MessageDigest) FRESH_SHA256.clone();
        } catch (CloneNotSupportedException notCloneable) {
            return sha256(); // a provider whose digest cannot be cloned
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }
}
