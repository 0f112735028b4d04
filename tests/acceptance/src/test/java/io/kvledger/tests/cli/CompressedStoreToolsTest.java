package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log tools read a store as they read a log, and a gzip-compressed store or log as the plain one:
 * {@code replay}, {@code audit} and {@code explain} of the compressed file print what they print of
 * the plain file.
 */
class CompressedStoreToolsTest {

    @TempDir
    Path dir;

    @Test
    void replayAuditAndExplainReadACompressedStoreAsThePlainOne() throws IOException, URISyntaxException {
        Path scenario = Path.of(CompressedStoreToolsTest.class.getResource("/examples/07_preemption_flush.jsonl").toURI());
        Path store = dir.resolve("store.jsonl");
        assertEquals(0, CliRun.of("run", scenario.toString(), "--store", store.toString()).exit());
        Path compressed = dir.resolve("store.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(compressed))) {
            Files.copy(store, out);
        }
        assertTrue(Files.size(compressed) < Files.size(store));

        for (String[] command : new String[][] {{"replay"}, {"replay", "--json"}, {"audit"}, {"explain", "--job", "0"}}) {
            CliRun plain = CliRun.of(with(command, store));
            CliRun gz = CliRun.of(with(command, compressed));
            assertEquals(0, plain.exit(), plain.stderr());
            assertEquals(plain.exit(), gz.exit(), gz.stderr());
            assertEquals(plain.stdout(), gz.stdout(), String.join(" ", command));
        }
    }

    private static String[] with(String[] command, Path file) {
        String[] args = new String[command.length + 1];
        args[0] = command[0];
        args[1] = file.toString();
        System.arraycopy(command, 1, args, 2, command.length - 1);
        return args;
    }
}
