package io.kvledger.domain.state;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import io.vavr.collection.Vector;

/**
 * One hash per full GPU block of known tokens, each chained to the previous one, so two requests with
 * the same token prefix get the same hashes for it. Deterministic: no salt. Only the tokens of the
 * unfinished last block are kept, so memory grows with blocks, not tokens.
 */
public record BlockHashes(int blockSize, Vector<String> hashes, Vector<Integer> tail) {

    private static final String ROOT = "";
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(BlockHashes::sha256);

    public static BlockHashes empty(int blockSize) {
        return new BlockHashes(blockSize, Vector.empty(), Vector.empty());
    }

    public static BlockHashes of(int blockSize, List<Integer> tokens) {
        return empty(blockSize).append(tokens);
    }

    /** The hashes after {@code tokens} are appended to the known tokens. */
    public BlockHashes append(List<Integer> tokens) {
        Vector<String> newHashes = hashes;
        Vector<Integer> newTail = tail;
        for (Integer token : tokens) {
            newTail = newTail.append(token);
            if (newTail.size() == blockSize) {
                String previous = newHashes.isEmpty() ? ROOT : newHashes.last();
                newHashes = newHashes.append(next(previous, newTail));
                newTail = Vector.empty();
            }
        }
        return new BlockHashes(blockSize, newHashes, newTail);
    }

    public int fullBlocks() {
        return hashes.size();
    }

    public String get(int block) {
        return hashes.get(block);
    }

    private static String next(String previous, Vector<Integer> blockTokens) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        digest.update(previous.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        ByteBuffer buffer = ByteBuffer.allocate(4 * blockTokens.size());
        for (Integer token : blockTokens) {
            buffer.putInt(token);
        }
        digest.update(buffer.array());
        // 128 bits keep collisions out of reach while the keys stay short enough to read in a log.
        return HexFormat.of().formatHex(digest.digest(), 0, 16);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }
}
