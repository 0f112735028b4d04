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
 * log. Each thread hashes into its own scratch buffers, so a block costs the digest and one string.
 */
final class ChainHash {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int HEX_LENGTH = 32;
    private static final ThreadLocal<ChainHash> SCRATCH = ThreadLocal.withInitial(ChainHash::new);

    private final MessageDigest digest = sha256();
    private byte[] previous = new byte[HEX_LENGTH];
    private final byte[] digestOut = new byte[32];
    private byte[] block = new byte[64];

    private ChainHash() {
    }

    /**
     * The hashes of the {@code count} blocks that {@code tail} followed by {@code tokens} complete,
     * chained from {@code last} (the hash of the block before them, or "" for none).
     */
    static String[] blocks(String last, IntTail tail, List<Integer> tokens, int blockSize, int count) {
        return SCRATCH.get().chain(last, tail, tokens, blockSize, count);
    }

    private String[] chain(String last, IntTail tail, List<Integer> tokens, int blockSize, int count) {
        if (block.length < 4 * blockSize) {
            block = new byte[4 * blockSize];
        }
        int previousLength = last.length();
        if (previous.length < previousLength) {
            previous = new byte[previousLength]; // only a hash not made here is longer
        }
        for (int i = 0; i < previousLength; i++) {
            previous[i] = (byte) last.charAt(i); // hex: ASCII
        }
        String[] hashes = new String[count];
        Iterator<Integer> next = tokens.iterator();
        for (int made = 0; made < count; made++) {
            int at = 0;
            if (made == 0) {
                for (int i = 0; i < tail.size(); i++) {
                    at = put(block, at, tail.token(i));
                }
            }
            while (at < 4 * blockSize) {
                at = put(block, at, next.next());
            }
            hashes[made] = hash(previousLength, blockSize);
            previousLength = HEX_LENGTH;
        }
        return hashes;
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
            previous[2 * i] = HEX[(digestOut[i] >> 4) & 0xf];
            previous[2 * i + 1] = HEX[digestOut[i] & 0xf];
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

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }
}
