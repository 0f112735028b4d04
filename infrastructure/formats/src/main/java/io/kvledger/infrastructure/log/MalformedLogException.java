package io.kvledger.infrastructure.log;

/** A log line that cannot be read; the message names the line. */
public final class MalformedLogException extends Exception {

    private final long line;

    public MalformedLogException(long line, String reason) {
        super(io.kvledger.domain.UnicodeText.escapeLoneSurrogates(line > 0 ? "line " + line + ": " + reason : reason));
        this.line = line;
    }

    public long line() {
        return line;
    }
}
