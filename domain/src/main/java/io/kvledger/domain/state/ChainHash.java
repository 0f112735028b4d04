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
 * log. Each call hashes into scratch buffers and a digest of its own (a clone of one never updated): nothing
 * is shared between folds or threads. (A process-wide table of the hashes made lately saved about a tenth of an audit's CPU under C1
 * and nothing measurable under C2: docs/performance.md, "Block hashes".)
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

    private ChainHash() {
    }

    /**
     * The hashes of the {@code count} blocks that {@code tail} followed by {@code tokens} complete,
     * chained from {@code last} (the hash of the block before them, or "" for none).
     */
    static String[] blocks(String last, IntTail tail, List<Integer> tokens, int blockSize, int count) {
        return new ChainHash().chain(last, tail, tokens, blockSize, count);
    }

    private String[] chain(String last, IntTail tail, List<Integer> tokens, int blockSize, int count) {
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
            if (previousLength < 0) {
                previousLength = bytesOf(previousHash);
            }
            for (int i = 0; i < blockSize; i++) {
                put(block, 4 * i, ints[i]);
            }
            String hash = hash(previousLength, blockSize);
            previousLength = HEX_LENGTH; // hash() left the new hash's bytes in previous
            hashes[made] = hash;
            previousHash = hash;
        }
        return hashes;
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
