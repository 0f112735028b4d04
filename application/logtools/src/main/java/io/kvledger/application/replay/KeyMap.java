package io.kvledger.application.replay;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The keys a log names, mapped onto the keys kvledger derives from the same tokens. Keys are opaque
 * and compared for equality only (contract section 3), so another implementation hashes differently;
 * mapping its keys by chunk position lets the domain fold, which derives keys from tokens, recognise
 * the chunks that log's tier holds. Kept only for chunks the tier may still hold, so it stays as small
 * as the tier.
 */
public final class KeyMap {

    private final Map<String, String> tokenKeyOfLogKey = new HashMap<>();
    private final Map<String, String> logKeyOfTokenKey = new HashMap<>();

    /**
     * Records that {@code logKey} names the chunk whose token-derived key is {@code tokenKey}.
     *
     * @return what contradicts an earlier pairing, or {@code null} when none does (the first pairing stays)
     */
    public KeyConflict learn(String logKey, String tokenKey) {
        String knownToken = tokenKeyOfLogKey.get(logKey);
        String knownLog = logKeyOfTokenKey.get(tokenKey);
        if (knownToken == null && knownLog == null) {
            tokenKeyOfLogKey.put(logKey, tokenKey);
            logKeyOfTokenKey.put(tokenKey, logKey);
            return null;
        }
        if (knownToken != null && !knownToken.equals(tokenKey)) {
            return new KeyConflict(logKey, tokenKey, logKeyOf(knownToken), true);
        }
        if (knownLog != null && !knownLog.equals(logKey)) {
            return new KeyConflict(logKey, tokenKey, knownLog, false);
        }
        return null;
    }

    /** The token-derived key a log key was paired with, or the log key itself when it never was. */
    public String tokenKeyOf(String logKey) {
        return tokenKeyOfLogKey.getOrDefault(logKey, logKey);
    }

    /** The key the log used for a token-derived key, or the key itself when the log never named it. */
    public String logKeyOf(String tokenKey) {
        return logKeyOfTokenKey.getOrDefault(tokenKey, tokenKey);
    }

    public void forget(Collection<String> tokenKeys) {
        for (String tokenKey : tokenKeys) {
            String logKey = logKeyOfTokenKey.remove(tokenKey);
            if (logKey != null) {
                tokenKeyOfLogKey.remove(logKey);
            }
        }
    }

    public void clear() {
        tokenKeyOfLogKey.clear();
        logKeyOfTokenKey.clear();
    }

    public int size() {
        return tokenKeyOfLogKey.size();
    }
}
