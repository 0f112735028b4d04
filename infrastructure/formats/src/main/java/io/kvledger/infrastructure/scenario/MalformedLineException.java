package io.kvledger.infrastructure.scenario;

/** A line that cannot be read at all (contract section 4, Bad input): the run stops there. */
public final class MalformedLineException extends Exception {

    private final long line;
    private final boolean configLine;

    public MalformedLineException(long line, String reason) {
        this(line, reason, false);
    }

    public MalformedLineException(long line, String reason, boolean configLine) {
        super("line " + line + ": " + io.kvledger.domain.UnicodeText.escapeLoneSurrogates(reason));
        this.line = line;
        this.configLine = configLine;
    }

    public long line() {
        return line;
    }

    /** Whether the bad line was a config line (which writes nothing, not even {@code EngineConfigured}). */
    public boolean configLine() {
        return configLine;
    }
}
