package io.kvledger.domain.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The chained block hash as it was first written (ByteBuffer, HexFormat, a string per previous hash): what keys must stay. */
final class ReferenceChainHash {

    private ReferenceChainHash() {
    }

    /** The hashes of every full block of {@code tokens}. */
    static List<String> of(int blockSize, List<Integer> tokens) {
        List<String> hashes = new ArrayList<>();
        String previous = "";
        for (int end = blockSize; end <= tokens.size(); end += blockSize) {
            previous = one(previous, tokens.subList(end - blockSize, end));
            hashes.add(previous);
        }
        return hashes;
    }

    /** The hash of {@code block} chained from {@code previous}. */
    static String one(String previous, List<Integer> block) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(previous.getBytes(StandardCharsets.US_ASCII));
            ByteBuffer buffer = ByteBuffer.allocate(4 * block.size());
            block.forEach(buffer::putInt);
            digest.update(buffer.array());
            return HexFormat.of().formatHex(digest.digest(), 0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
