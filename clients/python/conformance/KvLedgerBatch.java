import io.kvledger.infrastructure.cli.KvLedgerCli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs many kvledger commands in one JVM for the conformance harness (hundreds of audits would otherwise
 * start hundreds of JVMs). Launched as a single-file source program on the command line's jar:
 * {@code java -cp kvledger.jar KvLedgerBatch.java}. Reads one command per line on stdin, its arguments
 * separated by tabs; for each writes {@code EXIT <code> <stdout bytes> <stderr bytes>} and then both
 * outputs, as {@code kvledger ARGS} would have printed them.
 */
public class KvLedgerBatch {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // The frames go to the process's stdout; anything else printing to System.out (a library's banner) goes
        // to stderr instead, so it cannot break a frame.
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            ByteArrayOutputStream stdout = new ByteArrayOutputStream();
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            int code;
            try (PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8)) {
                try {
                    code = KvLedgerCli.execute(stdout, err, line.split("\t"));
                } catch (RuntimeException | Error e) {
                    e.printStackTrace(err);
                    code = 70;
                }
            }
            out.write(String.format("EXIT %d %d %d%n", code, stdout.size(), stderr.size())
                    .getBytes(StandardCharsets.US_ASCII));
            stdout.writeTo(out);
            stderr.writeTo(out);
            out.flush();
        }
    }
}
