package io.kvledger.infrastructure.kvevents;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A block hash as vLLM gives it to KV-event consumers: the low 64 bits (the last 8 bytes, big-endian)
 * of the hash's bytes ({@code maybe_convert_block_hash} in {@code vllm/v1/core/kv_cache_utils.py}).
 * kvledger's hashes are hex strings of 16 bytes; a key that is not hex (only a log written elsewhere
 * has one) is hashed first.
 */
final class ExternalHash {

    private ExternalHash() {
    }

    static long of(String hash) {
        if (hash.length() >= 16 && hash.length() % 2 == 0 && isHex(hash)) {
            return Long.parseUnsignedLong(hash.substring(hash.length() - 16), 16);
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(hash.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, digest.length - 8, 8).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    private static boolean isHex(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!HexFormat.isHexDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
