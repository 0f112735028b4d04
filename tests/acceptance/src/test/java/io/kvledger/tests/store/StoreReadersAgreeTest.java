package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: every reader of a store (the log tools, {@code export}) and every opener of it ({@code run},
 * {@code serve}) take the same store to hold the same steps: the same segments of a directory, the same
 * whole steps, the same verdict on a changed line, and readers never open a store for appending.
 */
class StoreReadersAgreeTest {

    @TempDir
    Path dir;

    /** One in-process run of the command line. */
    record Run(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exit + ", stderr: " + stderr;
        }
    }

    static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A scenario of {@code pairs} registrations, each with its lookup: two events each. */
    private Path scenario(String name, int pairs) throws Exception {
        StringBuilder lines = new StringBuilder("{\"config\": {\"gpuBlockSize\": 4}}\n");
        for (int i = 0; i < pairs; i++) {
            lines.append("{\"cmd\": \"RegisterRequest\", \"requestId\": \"r").append(i)
                    .append("\", \"promptTokens\": [1, 2, 3, 4, 5, 6, 7, 8]}\n");
            lines.append("{\"cmd\": \"MatchPrefix\", \"requestId\": \"r").append(i).append("\"}\n");
        }
        return Files.writeString(dir.resolve(name), lines);
    }

    /** The reproducer: a closed segment both plain and compressed (a SIGKILL between the rename and the removal). */
    @Test
    void aSegmentBothPlainAndCompressedReadsTheSameForEveryReaderAndTheOpenerKeepsTheCompressedOne() throws Exception {
        Path store = dir.resolve("rep");
        Path log = dir.resolve("run.jsonl");
        Run run = cli("run", scenario("s.jsonl", 1500).toString(), "--store", "file:" + store + "/?segmentBytes=65536",
                "-o", log.toString());
        assertEquals(0, run.exit(), run.toString());
        List<Path> compressed = files(store, ".jsonl.gz");
        assertTrue(compressed.size() >= 2, "closed segments compressed: " + compressed);
        Path newestGz = compressed.get(compressed.size() - 1);
        Path plain = newestGz.resolveSibling(newestGz.getFileName().toString().replace(".gz", ""));
        Files.write(plain, gunzip(newestGz)); // gunzip -k

        Run export = cli("export", "--store", "file:" + store + "/", "-o", dir.resolve("exported.jsonl").toString());
        assertEquals(0, export.exit(), export.toString());
        assertEquals(Files.readString(log), Files.readString(dir.resolve("exported.jsonl")), "export gives run's log");
        Run audit = cli("audit", store.toString());
        assertEquals(0, audit.exit(), audit.toString());
        assertTrue(Files.exists(plain), "readers change nothing on disk");
        Run replayDir = cli("replay", store.toString());
        assertEquals(cli("replay", log.toString()).stdout(), replayDir.stdout(), "the directory replays as the log");

        Run more = cli("run", scenario("more.jsonl", 1).toString(), "--store", "file:" + store + "/?segmentBytes=65536",
                "-o", dir.resolve("more-out.jsonl").toString());
        assertEquals(0, more.exit(), more.toString());
        assertFalse(Files.exists(plain), "opening for appending keeps the whole compressed copy and removes the plain one");
        assertTrue(Files.exists(newestGz));
        Run again = cli("export", "--store", store.toString() + "/");
        assertEquals(0, again.exit(), again.toString());
        assertEquals(Files.readString(dir.resolve("more-out.jsonl")), again.stdout(), "the store goes on from the same steps");
    }

    /** A store cut inside a step: the readers stop at the last whole step, as opening the store cuts it. */
    @Test
    void aStoreCutInsideAStepIsReadToItsLastWholeStepAsOpeningCutsIt() throws Exception {
        Path full = dir.resolve("full.jsonl");
        Run run = cli("run", scenario("s.jsonl", 400).toString(), "--store", full.toString(), "-o", dir.resolve("o").toString());
        assertEquals(0, run.exit(), run.toString());
        List<String> lines = Files.readAllLines(full);
        int stepEnd = lastLineOfStepBefore(lines, 100);
        assertTrue(stepEnd > 0 && stepEnd < 99, "line 100 lies inside a step that began after line " + stepEnd);
        Path whole = Files.write(dir.resolve("whole.jsonl"), lines.subList(0, stepEnd));
        Path cut = Files.write(dir.resolve("cut.jsonl"), lines.subList(0, 100)); // the step's first lines only
        byte[] cutBytes = Files.readAllBytes(cut);
        Path noNewline = Files.write(dir.resolve("torn-line.jsonl"), Arrays.copyOf(cutBytes, cutBytes.length - 20));

        for (Path torn : List.of(cut, noNewline)) {
            for (List<String> tool : List.of(List.of("audit"), List.of("replay"), List.of("replay", "--at", "99"),
                    List.of("explain", "--job", "0"), List.of("trace"))) {
                List<String> args = new ArrayList<>(tool.subList(0, 1));
                args.add(torn.toString());
                args.addAll(tool.subList(1, tool.size()));
                Run read = cli(args.toArray(String[]::new));
                args.set(1, whole.toString());
                Run expected = cli(args.toArray(String[]::new));
                assertEquals(expected.exit(), read.exit(), tool + " " + torn + ": " + read);
                assertEquals(expected.stdout().replace(whole.toString(), torn.toString()), read.stdout(),
                        tool + " " + torn + " reads the whole steps only"); // (trace names its log)
                assertTrue(read.stderr().contains("left out the torn step at its end, lines " + (stepEnd + 1) + " to "),
                        tool + " " + torn + ": " + read.stderr());
            }
            Run export = cli("export", "--store", torn.toString());
            assertEquals(0, export.exit(), export.toString());
            assertEquals(cli("export", "--store", whole.toString()).stdout(), export.stdout());
            assertTrue(export.stderr().contains("left out the torn step"), export.stderr());
        }
        // Opening the store for appending cuts the same lines: what is left is the whole steps the readers read.
        Run resume = cli("run", scenario("one.jsonl", 1).toString(), "--store", cut.toString(), "-o", dir.resolve("o2").toString());
        assertEquals(0, resume.exit(), resume.toString());
        List<String> resumed = Files.readAllLines(cut);
        assertEquals(lines.subList(0, stepEnd), resumed.subList(0, stepEnd));
        List<String> printed = Files.readAllLines(dir.resolve("o2"));
        assertEquals(cli("export", "--store", whole.toString()).stdout(), String.join("\n", printed.subList(0, stepEnd)) + "\n",
                "run resumed from the whole steps the readers read");
        assertEquals(printed.size(), resumed.size(), "the torn step was cut, the run's step appended");
    }

    /**
     * A line changed before the store's latest snapshot: {@code run} and {@code serve} refuse the store on open,
     * naming the step's line, and change nothing; the log tools refuse it before printing anything of the step.
     */
    @Test
    void aChangedLineBeforeTheSnapshotIsRefusedByEveryOpenerAndNothingOfItsStepIsPrinted() throws Exception {
        Path store = dir.resolve("S.jsonl");
        // 26,001 events: past the default snapshot interval (25,000), so the store opens from its snapshot.
        Run run = cli("run", scenario("big.jsonl", 13_000).toString(), "--store", store.toString(), "-o", dir.resolve("o").toString());
        assertEquals(0, run.exit(), run.toString());
        assertTrue(Files.exists(Path.of(store + ".snapshot")), "a snapshot was taken");
        List<String> original = Files.readAllLines(store);
        // After the snapshot: a lookup changed into one the rules would not give (a finding, were it judged).
        List<String> lines = new ArrayList<>(original);
        int changed = 25_600; // the snapshot is taken at the first step's end past seq 25,000
        while (!lines.get(changed).contains("\"type\": \"PrefixMatched\"") || lines.get(changed).contains("stepCrc32c")) {
            changed++;
        }
        lines.set(changed, lines.get(changed).replace("\"externalTokens\": 0, \"hitChunks\": []", "\"externalTokens\": 4, \"hitChunks\": [0]"));
        Files.write(store, lines);
        Run audit = cli("audit", store.toString());
        assertEquals(2, audit.exit(), audit.toString());
        assertEquals("", audit.stdout(), "no finding from the changed step: its checksum is checked before it is judged");
        assertTrue(audit.stderr().contains("does not match its checksum"), audit.stderr());
        int at = changed;
        Run plainLog = cli("audit", Files.write(dir.resolve("plain.jsonl"), cli("export", "--store", Files.write(
                dir.resolve("unchanged.jsonl"), original).toString()).stdout().lines().map(line -> changedAt(line, at))
                .toList()).toString());
        assertEquals(1, plainLog.exit(), "the same change in a plain log, which has no checksums, is a finding: " + plainLog);

        // Before the snapshot: a request id changed into another (valid JSON, same length).
        lines = new ArrayList<>(original);
        assertTrue(lines.get(2).contains("\"requestId\": \"r0\""), lines.get(2));
        lines.set(2, lines.get(2).replace("\"requestId\": \"r0\"", "\"requestId\": \"s0\"")); // still valid JSON
        Files.write(store, lines);
        int last = 2; // the index of the changed step's last line, which carries its checksum
        while (!lines.get(last).contains("\"stepCrc32c\"")) {
            last++;
        }
        String refusal = "line " + (last + 1) + ": seq " + (last + 1) + ": the step of seq 2 to " + (last + 1);
        byte[] before = Files.readAllBytes(store);

        Run resumed = cli("run", scenario("one.jsonl", 1).toString(), "--store", store.toString(), "-o", dir.resolve("o2").toString());
        assertEquals(2, resumed.exit(), resumed.toString());
        assertTrue(resumed.stderr().contains(refusal) && resumed.stderr().contains("does not match its checksum"), resumed.stderr());
        assertFalse(resumed.stderr().contains("changed since the store opened it"), resumed.stderr());
        assertArrayEquals(before, Files.readAllBytes(store), "run left the store as it was");

        Path err = dir.resolve("serve.err");
        Process serve = new ProcessBuilder(KillDuringAppendTest.javaCommand(KvLedgerCli.class.getName(), "serve", "--stdio",
                "--store", store.toString())).redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        serve.getOutputStream().close(); // no request: a store that opened would resume, and exit 0 at the end of input
        assertTrue(serve.waitFor(120, TimeUnit.SECONDS), "serve did not finish");
        String serveErr = Files.readString(err);
        assertEquals(2, serve.exitValue(), serveErr);
        assertTrue(serveErr.contains(refusal) && serveErr.contains("does not match its checksum"), serveErr);
        assertArrayEquals(before, Files.readAllBytes(store), "serve left the store as it was");

        for (String[] args : List.of(new String[] {"audit", store.toString()}, new String[] {"replay", store.toString(), "--at", "3"},
                new String[] {"export", "--store", store.toString()})) {
            Run read = cli(args);
            assertEquals(2, read.exit(), args[0] + ": " + read);
            // export streams the whole steps before it to stdout (-o would leave no file at all); nothing of the step.
            assertFalse(read.stdout().contains("\"seq\": 2,"), args[0] + " printed nothing of the changed step");
            assertFalse(!args[0].equals("export") && !read.stdout().isEmpty(), args[0] + " printed nothing: " + read.stdout());
            assertTrue(read.stderr().contains("does not match its checksum"), args[0] + ": " + read.stderr());
        }
    }

    /** The line of seq {@code index + 1} of a plain log with the lookup change above. */
    private static String changedAt(String line, int index) {
        return line.startsWith("{\"seq\": " + (index + 1) + ",")
                ? line.replace("\"externalTokens\": 0, \"hitChunks\": []", "\"externalTokens\": 4, \"hitChunks\": [0]") : line;
    }

    /** A store on a read-only file system (a read-only bind mount): the readers never open it for appending. */
    @Test
    void aStoreOnAReadOnlyFileSystemExportsAndAudits() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("ro"));
        Path file = mount.resolve("S.jsonl");
        Path directory = mount.resolve("D");
        Run run = cli("run", scenario("s.jsonl", 1500).toString(), "--store", file.toString(), "-o", dir.resolve("o").toString());
        assertEquals(0, run.exit(), run.toString());
        run = cli("run", scenario("s.jsonl", 1500).toString(), "--store", "file:" + directory + "/?segmentBytes=65536",
                "-o", dir.resolve("o-dir").toString());
        assertEquals(0, run.exit(), run.toString());
        exec("mount", "--bind", mount.toString(), mount.toString());
        try {
            exec("mount", "-o", "remount,ro,bind", mount.toString());
            assertFalse(Files.isWritable(mount) && canCreate(mount), "the mount is read-only");
            Run exported = cli("export", "--store", file.toString());
            assertEquals(0, exported.exit(), exported.toString());
            assertEquals(Files.readString(dir.resolve("o")), exported.stdout());
            Run exportedDir = cli("export", "--store", "file:" + directory + "/");
            assertEquals(0, exportedDir.exit(), exportedDir.toString());
            assertEquals(Files.readString(dir.resolve("o-dir")), exportedDir.stdout());
            Run audit = cli("audit", directory.toString());
            assertEquals(0, audit.exit(), audit.toString());
        } finally {
            exec("umount", mount.toString());
        }
    }

    /** A 0-byte store (a run killed before its first step): run resumes it; the readers say why it is no log yet. */
    @Test
    void anEmptyStoreIsResumedByRunAndTheReadersSayWhyItIsNoLogYet() throws Exception {
        Path store = Files.createFile(dir.resolve("empty.jsonl"));
        for (String[] args : List.of(new String[] {"audit", store.toString()}, new String[] {"replay", store.toString()},
                new String[] {"export", "--store", store.toString()})) {
            Run read = cli(args);
            assertEquals(2, read.exit(), args[0] + ": " + read);
            assertTrue(read.stderr().contains("holds no step yet (its run stopped before its first step);"
                    + " run --store resumes it"), args[0] + ": " + read.stderr());
        }
        Run resumed = cli("run", scenario("s.jsonl", 3).toString(), "--store", store.toString(), "-o", dir.resolve("o").toString());
        assertEquals(0, resumed.exit(), resumed.toString());
        Run exported = cli("export", "--store", store.toString());
        assertEquals(0, exported.exit(), exported.toString());
        assertEquals(Files.readString(dir.resolve("o")), exported.stdout(), "once a step is stored, the store reads as its log");
        assertEquals(0, cli("audit", store.toString()).exit());
    }

    /** A cut compressed segment: a message naming the file and what is wrong, not the JDK's exception. */
    @Test
    void aCutCompressedSegmentIsNamedInWords() throws Exception {
        Path store = dir.resolve("D");
        Run run = cli("run", scenario("s.jsonl", 1500).toString(), "--store", "file:" + store + "/?segmentBytes=65536",
                "-o", dir.resolve("o").toString());
        assertEquals(0, run.exit(), run.toString());
        Path gz = files(store, ".jsonl.gz").get(0);
        byte[] bytes = Files.readAllBytes(gz);
        Files.write(gz, Arrays.copyOf(bytes, bytes.length / 2));
        for (String[] args : List.of(new String[] {"audit", store.toString()}, new String[] {"audit", gz.toString()},
                new String[] {"replay", store.toString()}, new String[] {"export", "--store", "file:" + store + "/"})) {
            Run read = cli(args);
            assertEquals(2, read.exit(), String.join(" ", args) + ": " + read);
            assertTrue(read.stderr().contains(gz + " is cut: its gzip data ends before the end of the compressed stream"),
                    String.join(" ", args) + ": " + read.stderr());
            assertFalse(read.stderr().contains("Exception"), read.stderr());
        }
    }

    private static boolean canCreate(Path directory) {
        try {
            Files.delete(Files.createTempFile(directory, "probe", ".tmp"));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void exec(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0,
                String.join(" ", command) + " failed (the test runs as root, as DiskFullTest does): " + output);
    }

    /** The first line of the step holding {@code line} (1-based) is after the returned line number. */
    private static int lastLineOfStepBefore(List<String> lines, int line) {
        for (int i = line - 1; i >= 0; i--) {
            if (lines.get(i).contains("\"envelope\"")) {
                return i; // line i + 1 begins the step: the whole steps end at line i
            }
        }
        return -1;
    }

    private static List<Path> files(Path store, String suffix) throws Exception {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static byte[] gunzip(Path file) throws Exception {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }
}
