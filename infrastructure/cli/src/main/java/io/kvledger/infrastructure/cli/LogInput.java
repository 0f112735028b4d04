package io.kvledger.infrastructure.cli;

import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The LOG argument and {@code --progress} of the log tools; bad input becomes a message and exit 2. */
final class LogInput {

    /** Why an empty store is no log (the same words in export's refusal). */
    static final String EMPTY_STORE = "a store this empty holds no step yet (its run stopped before its first step);"
            + " run --store resumes it, and it reads as a log once that run stored a step";

    @Parameters(index = "0", paramLabel = "LOG", converter = LogLocationConverter.class,
            description = "Event log, JSON Lines (contract section 3), plain or gzip-compressed; or a store directory"
                    + " (DIR, DIR/ or file:DIR/), or one of its segments.")
    Path file;

    @Option(names = "--progress", description = "Report progress on stderr even when it is not a terminal.")
    boolean progress;

    /** What a tool does with the log; returns its exit code. */
    interface Body {
        int scan(LogScan scan) throws IOException, MalformedLogException;
    }

    /** @param preparation what the parse thread does to each entry ({@link LogScan.Preparation}) */
    int scan(String tool, LogScan.Preparation preparation, Body body) throws IOException {
        return scan(tool, preparation, 0, body);
    }

    /**
     * @param nearSeq a tool that stops at this seq: a store directory is read from the nearest segment base at or
     *                before it ({@link LogScan#linesPassedOver()}); 0 for the whole log
     */
    int scan(String tool, LogScan.Preparation preparation, long nearSeq, Body body) throws IOException {
        try (LogScan scan = LogScan.open(file, tool, preparation, progress, LogScan.parseAheadByDefault(), nearSeq)) {
            return body.scan(scan);
        } catch (InputFailure e) {
            return Cli.fail(e.getMessage());
        } catch (MalformedLogException e) {
            // Line 0: nothing but blank lines. A log begins with EngineConfigured (contract section 3); a store
            // that empty is one whose run stopped before its first step: not a log yet, though run resumes it.
            return Cli.fail(file + ": " + e.getMessage() + (e.line() == 0 ? "; " + EMPTY_STORE : ""));
        } catch (IOException e) {
            // Only the log is read here (outputs fail unchecked): a damaged gzip stream, say.
            return Cli.fail(new InputFailure(file, e).getMessage());
        }
    }
}
