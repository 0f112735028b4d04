package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.json.EventJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that takes a store reads its location one way (issue 31): a path ending with / is a store
 * directory, {@code file:DIR/} and {@code jdbc:postgresql://...} are locations and never file names, a plain
 * path naming an existing directory is refused by the commands that would write a store there (with both
 * ways to name the directory), and a file named with a trailing slash is refused by every command.
 */
class StoreLocationCommandsTest {

    private static final Path SCENARIO = Path.of("src/test/resources/examples/05_abort_mid_prefill.jsonl");

    @TempDir
    Path dir;

    @Test
    void runWithATrailingSlashWritesAStoreDirectoryWhichExportAuditAndReplayRead() throws Exception {
        Path store = dir.resolve("engine-0");
        CliRun run = CliRun.of("run", SCENARIO.toString(), "--store", store + "/");
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(Files.isDirectory(store), "a directory, not a file named engine-0");
        assertTrue(segments(store) > 0, "holding segments");

        for (String written : new String[] {store + "/", "file:" + store + "/", store.toString()}) {
            CliRun export = CliRun.of("export", "--store", written);
            assertEquals(0, export.exit(), written + ": " + export.stderr());
            assertEquals(run.stdout(), export.stdout(), written);
        }
        for (String written : new String[] {store + "/", "file:" + store + "/"}) {
            CliRun audit = CliRun.of("audit", written);
            assertEquals(0, audit.exit(), written + ": " + audit.stdout() + audit.stderr());
            CliRun replay = CliRun.of("replay", written);
            assertEquals(0, replay.exit(), written + ": " + replay.stderr());
        }
    }

    @Test
    void runOnAnExistingDirectoryWithoutItsSlashIsRefusedWithTheTwoWaysToNameIt() throws Exception {
        Path existing = Files.createDirectory(dir.resolve("existing"));
        CliRun run = CliRun.of("run", SCENARIO.toString(), "--store", existing.toString());
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("is a directory") && run.stderr().contains(existing + "/")
                && run.stderr().contains("file:" + existing + "/"), run.stderr());
        try (Stream<Path> files = Files.list(existing)) {
            assertEquals(0, files.count(), "nothing written");
        }
    }

    @Test
    void aFileNamedWithATrailingSlashIsRefusedByEveryCommand() throws Exception {
        Path file = dir.resolve("engine.jsonl");
        assertEquals(0, CliRun.of("run", SCENARIO.toString(), "--store", file.toString()).exit());
        byte[] before = Files.readAllBytes(file);
        for (String[] command : new String[][] {
                {"run", SCENARIO.toString(), "--store", file + "/"},
                {"export", "--store", file + "/"},
                {"audit", file + "/"},
                {"replay", file + "/"},
                {"serve", "--stdio", "--store", file + "/"}}) {
            CliRun refused = command[0].equals("serve") ? child(command) : CliRun.of(command);
            assertEquals(2, refused.exit(), String.join(" ", command) + ": " + refused.stderr());
            assertTrue(refused.stderr().contains("is a file"), refused.stderr());
        }
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(file)), "the store file is untouched");
    }

    @Test
    void serveTakesADatabaseUrlForADatabaseNotForAFileName() throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        CliRun serve = child("serve", "--stdio", "--store", "jdbc:postgresql://127.0.0.1:1/kv?user=u");
        assertEquals(2, serve.exit(), serve.stderr());
        assertTrue(serve.stderr().contains("store jdbc:postgresql://127.0.0.1:1/kv"), serve.stderr());
        assertFalse(Files.exists(cwd.resolve("jdbc:postgresql:")), "no store file named after the URL");
        CliRun audit = CliRun.of("audit", "jdbc:postgresql://127.0.0.1:1/kv?user=u");
        assertEquals(2, audit.exit());
        assertTrue(audit.stderr().contains("kvledger export --store"), audit.stderr());
    }

    /**
     * {@code serve --store DIR/} is a real store directory: a real child server writes its steps there, holding the
     * directory's lock, which a second server on {@code file:DIR/} honours; after SIGTERM export reads the steps back.
     */
    @Test
    void serveWritesAStoreDirectoryAndHonoursItsLock() throws Exception {
        Path store = dir.resolve("served");
        Path socket = dir.resolve("serve.sock");
        Path stderr = dir.resolve("serve.stderr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                KvLedgerCli.class.getName(), "serve", "--socket", socket.toString(), "--store", store + "/"))
                .redirectError(stderr.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> Files.exists(socket) || !child.isAlive());
            assertTrue(child.isAlive(), () -> read(stderr));
            long lastSeq;
            try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                channel.connect(UnixDomainSocketAddress.of(socket));
                BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
                assertFalse(request(channel, in, "{\"hello\": {\"protocol\": 1}}").get("hello").get("resumed").booleanValue());
                lastSeq = request(channel, in, "{\"step\": [[\"RegisterRequest\", \"r1\", [1, 2, 3, 4]],"
                        + " [\"AllocateBlocks\", \"r1\", [7]]]}").get("lastSeq").longValue();

                CliRun second = child("serve", "--stdio", "--store", "file:" + store + "/");
                assertEquals(2, second.exit(), "a second server on the same directory is refused: " + second.stderr());
                assertTrue(second.stderr().contains("lock"), second.stderr());
            }
            child.destroy(); // SIGTERM: a clean stop
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !child.isAlive());
            assertEquals(0, child.exitValue(), read(stderr));
            assertTrue(segments(store) > 0, "the served engine's segments");
            CliRun export = CliRun.of("export", "--store", store + "/");
            assertEquals(0, export.exit(), export.stderr());
            assertEquals(lastSeq, export.stdout().size(), "every answered event is in the directory");
        } finally {
            child.destroyForcibly();
            child.waitFor();
        }
    }

    /** {@code kvledger ARGS} as a real process of its own (serve prints on the process's own stderr), its input empty. */
    private CliRun child(String... args) throws Exception {
        Path err = Files.createTempFile(dir, "child", ".stderr");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                KvLedgerCli.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "ended: " + read(err));
        return new CliRun(process.exitValue(), List.of(), read(err));
    }

    private static JsonNode request(SocketChannel channel, BufferedReader in, String line) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        return EventJson.mapper().readTree(in.readLine());
    }

    private static long segments(Path store) throws IOException {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(f -> f.getFileName().toString().startsWith("segment-")).count();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }
}
