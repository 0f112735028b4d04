package io.kvledger.infrastructure.cli;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Process-wide concerns of the command line: its streams and how a fatal error is reported. */
final class Cli {

    static final int EXIT_FAILURE = 1;
    static final int EXIT_BAD_INPUT = 2;

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

    /** A UTF-8 writer on stdout for a command's report; flush it, never close it. */
    static PrintWriter stdoutWriter() {
        return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8)), false);
    }

    /** Prints {@code kvledger: message} on stderr and returns the bad-input exit code. */
    static int fail(String message) {
        stderr.println("kvledger: " + message);
        return EXIT_BAD_INPUT;
    }

    /** An unexpected failure: one line on stderr, the stack trace only with -Dkvledger.debug=true. */
    static void internalError(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof io.kvledger.application.engine.StepFailedException)) {
            cause = cause.getCause();
        }
        stderr.println("kvledger: internal error: " + cause.getMessage());
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
