package io.kvledger.application.replay;

/**
 * A log key that does not follow its chunk's tokens: either it already named a different token prefix
 * ({@code logKeyReused}), or the same token prefix already had another key in this log.
 *
 * @param logKey   the key the event names
 * @param tokenKey the key kvledger derives for the chunk it names
 * @param earlier  the log key of the earlier pairing
 */
public record KeyConflict(String logKey, String tokenKey, String earlier, boolean logKeyReused) {
}
