package io.kvledger.infrastructure.cli;

import io.kvledger.domain.UnicodeText;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Process-wide concerns of the command line: its streams, its exit codes and how a failure is
 * reported. One exit-code policy for every command:
 * <ul>
 * <li>0: done;</li>
 * <li>1: only what the contract gives it: audit's violations, explain's unknown job, shrink's scenario that
 * does not show the code, simulate's failed check;</li>
 * <li>2: bad input, unreadable input, unwritable output, a bad config in a log, a bad option;</li>
 * <li>70 (EX_SOFTWARE): an internal error, a bug of kvledger's own;</li>
 * <li>141 (128 + SIGPIPE): the reader of stdout went away, as a program killed by SIGPIPE reports it.</li>
 * </ul>
 */
final class Cli {

    static final int EXIT_FAILURE = 1;
    static final int EXIT_BAD_INPUT = 2;
    static final int EXIT_INTERNAL = 70;
    static final int EXIT_BROKEN_PIPE = 141;

    private static OutputStream stdout = System.out;
    private static PrintStream stderr = new PrintStream(System.err, true, StandardCharsets.UTF_8);

    private Cli() {
    }

    static OutputStream stdout() {
        return stdout;
    }

    static PrintStream stderr() {
        return stderr;
    }

    /** A checked UTF-8 writer on stdout for a command's report; flush it, never close it. */
    static PrintWriter stdoutWriter() {
        return Output.stdout().printWriter();
    }

    /** Prints {@code kvledger: message} on stderr and returns the bad-input exit code. */
    static int fail(String message) {
        say(message);
        return EXIT_BAD_INPUT;
    }

    /** Prints {@code kvledger: message} on stderr. */
    static void say(String message) {
        stderr.println("kvledger: " + UnicodeText.escapeLoneSurrogates(message));
    }

    /** The exit code of a failure that reached the top, after its message. */
    static int failure(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof OutputFailure output) {
                if (output.brokenPipe()) {
                    return EXIT_BROKEN_PIPE; // quietly, as a program killed by SIGPIPE
                }
                return fail(output.getMessage());
            }
            if (cause instanceof InputFailure input) {
                return fail(input.getMessage());
            }
            if (cause instanceof org.axonframework.eventsourcing.eventstore.EventStoreException store) {
                return fail("the store cannot be written: " + store.getMessage()
                        + " (every event acknowledged before stays in it; the next open cuts a torn end)");
            }
            if (cause instanceof OutOfMemoryError) {
                return fail("out of memory (the heap holds at most " + Runtime.getRuntime().maxMemory() / (1 << 20)
                        + " MB): raise it with KVLEDGER_JAVA_OPTS=-Xmx..., or split the input");
            }
        }
        internalError(e);
        return EXIT_INTERNAL;
    }

    /** An unexpected failure: one line on stderr, the stack trace only with -Dkvledger.debug=true. */
    static void internalError(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof io.kvledger.application.engine.StepFailedException)) {
            cause = cause.getCause();
        }
        say("internal error: " + (cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage())
                + " (a bug of kvledger; -Dkvledger.debug=true in KVLEDGER_JAVA_OPTS prints its stack trace)");
        if (Boolean.getBoolean("kvledger.debug")) {
            e.printStackTrace(stderr);
        }
    }

    /** Lets an in-process caller (a test) capture what a child process would print. */
    static void redirect(OutputStream out, PrintStream err) {
        stdout = out;
        stderr = err;
    }
}
