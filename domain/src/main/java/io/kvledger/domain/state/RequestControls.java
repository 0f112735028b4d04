package io.kvledger.domain.state;

/**
 * A request's own offloading controls (contract section 9.1), as its {@code RegisterRequest} gave them;
 * a {@code null} field was not given and leaves the behaviour of revision 5.
 *
 * @param maxOffloadTokens       never store a chunk that reaches past this many tokens
 * @param maxLoadTokens          load at most this many tokens beyond the GPU hit (0: never load)
 * @param skipReadingPrefixCache never look the request up in the CPU tier when {@code true}
 */
public record RequestControls(Integer maxOffloadTokens, Integer maxLoadTokens, Boolean skipReadingPrefixCache) {

    /** The controls given, or {@code null} when none was: a request without them is kept as before revision 6. */
    public static RequestControls ofNullable(Integer maxOffloadTokens, Integer maxLoadTokens, Boolean skipReadingPrefixCache) {
        if (maxOffloadTokens == null && maxLoadTokens == null && skipReadingPrefixCache == null) {
            return null;
        }
        return new RequestControls(maxOffloadTokens, maxLoadTokens, skipReadingPrefixCache);
    }

    /** Whether the lookup skips the CPU tier (only an explicit {@code true} does). */
    public boolean skipsPrefixCache() {
        return Boolean.TRUE.equals(skipReadingPrefixCache);
    }
}
