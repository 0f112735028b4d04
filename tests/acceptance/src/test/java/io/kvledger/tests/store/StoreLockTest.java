package io.kvledger.tests.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.RecoveryReport;
import io.kvledger.infrastructure.store.SegmentPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: a store's lock is held for the whole life of its writer, whatever the writer is doing. A
 * first writer (a real child process: {@code kvledger run}, {@code kvledger serve}, a host over the
 * embedding API) is held at each phase: opening (a snapshot beside the store that is a FIFO holds the
 * opener after it took the lock), re-printing a resumed store (its {@code -o} is a FIFO nobody reads
 * yet), appending (its scenario is a FIFO fed step by step), after a snapshot, and, over a store
 * directory, after rolling a segment. At each phase {@code /proc/locks} shows the child's lock on the
 * store, and a second writer (another child) is refused with exit 2 and "locked", the store's bytes
 * unchanged. At the end the store audits clean and reopens with nothing to cut.
 *
 * <p>Before the fix, {@code run --store} re-read a resumed store through a second descriptor and
 * closed it, which drops the process's POSIX lock: the appending phase found no lock and the second
 * writer ran (exit 0).
 */
class StoreLockTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aResumedRunHoldsItsLockWhileOpeningReprintingAppendingAndSnapshotting() throws Exception {
        Path store = dir.resolve("S.jsonl");
        Path pre = write("pre.jsonl", Workload.lines(0, 600, true));
        assertEquals(0, cli("run", pre.toString(), "--store", store.toString(), "--fsync", "never",
                "-o", dir.resolve("pre.out").toString()));
        Path snapshot = store.resolveSibling(store.getFileName() + ".snapshot");
        Files.deleteIfExists(snapshot);
        mkfifo(snapshot);
        Path scenario = mkfifo(dir.resolve("scenario.fifo"));
        Path out = mkfifo(dir.resolve("out.fifo"));
        Path other = write("other.jsonl", Workload.lines(10_000, 5, false));

        Process first = start("run", scenario.toString(), "--store", store.toString(), "--fsync", "never", "-o", out.toString());
        try (OutputStream feed = new FileOutputStream(scenario.toFile());
                InputStream printed = new FileInputStream(out.toFile())) {
            int request = 600;
            feed.write(Workload.lines(request++, 1, false).getBytes(StandardCharsets.UTF_8));
            feed.flush();

            // Opening: the child took the lock, then waits to read the snapshot (a FIFO).
            awaitLock(first, store);
            secondWritersAreRefused(store, other);
            try (OutputStream damaged = new FileOutputStream(snapshot.toFile())) {
                damaged.write("not a snapshot\n".getBytes(StandardCharsets.UTF_8));
            }

            // Re-printing: the resumed store's events go to -o, which nobody reads yet; the pipe fills.
            assertTrue(printed.read() >= 0);
            awaitLock(first, store);
            secondWritersAreRefused(store, other);
            Path printedCopy = dir.resolve("printed.jsonl");
            Thread drain = drain(printed, printedCopy);

            // Appending: steps of 256 lines are fed, then the child waits for more.
            long before = Files.size(store);
            feed.write(Workload.lines(request, 52, false).getBytes(StandardCharsets.UTF_8));
            request += 52;
            feed.flush();
            await().atMost(WAIT).until(() -> Files.size(store) > before);
            awaitLock(first, store);
            secondWritersAreRefused(store, other);

            // Snapshotting: fed until the store has written its first snapshot (every 25,000 events).
            while (!Files.isRegularFile(snapshot)) {
                long size = Files.size(store);
                feed.write(Workload.lines(request, 256, false).getBytes(StandardCharsets.UTF_8));
                request += 256;
                feed.flush();
                await().atMost(WAIT).until(() -> Files.size(store) > size);
            }
            await().atMost(WAIT).until(() -> lastLineEnds(store));
            awaitLock(first, store);
            secondWritersAreRefused(store, other);
            feed.close();
            assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the first writer did not finish");
            drain.join();
        } finally {
            first.destroyForcibly();
        }
        assertEquals(0, first.exitValue(), stderr(first));
        assertIntact(store);
        assertEquals(Files.readAllLines(printed()).size(), Files.readAllLines(store).size(),
                "the output holds the whole log: the stored events and the run's");
    }

    @Test
    void aStoreDirectoryHoldsItsLockWhileAppendingAndRolling() throws Exception {
        Path directory = dir.resolve("D");
        String location = "file:" + directory + "/?fsync=never&segmentBytes=200000&snapshotEvery=500";
        Path scenario = mkfifo(dir.resolve("scenario.fifo"));
        Path other = write("other.jsonl", Workload.lines(10_000, 5, false));
        Process first = start("run", scenario.toString(), "--store", location, "-o", "/dev/null");
        try (OutputStream feed = new FileOutputStream(scenario.toFile())) {
            int request = 0;
            feed.write(Workload.lines(request, 52, true).getBytes(StandardCharsets.UTF_8));
            request += 52;
            feed.flush();
            Path lock = directory.resolve("store.lock");
            await().atMost(WAIT).until(() -> segments(directory) == 1 && Files.size(firstSegment(directory)) > 10_000);
            awaitLock(first, lock);
            settled(directory);
            secondWritersAreRefused(directory, other, location);
            while (segments(directory) < 3) {
                feed.write(Workload.lines(request, 256, false).getBytes(StandardCharsets.UTF_8));
                request += 256;
                feed.flush();
                Thread.sleep(200);
            }
            // Rolling: the child rolls every few steps; a second writer at any moment is refused.
            for (int attempt = 0; attempt < 3; attempt++) {
                feed.write(Workload.lines(request, 256, false).getBytes(StandardCharsets.UTF_8));
                request += 256;
                feed.flush();
                awaitLock(first, lock);
                Kvledger second = Kvledger.run(dir, "run", other.toString(), "--store", location, "-o", "/dev/null");
                assertEquals(2, second.exit(), second.stderr());
                assertTrue(second.stderr().contains("locked"), second.stderr());
            }
            feed.close();
            assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the first writer did not finish");
        } finally {
            first.destroyForcibly();
        }
        assertEquals(0, first.exitValue(), stderr(first));
        assertEquals(0, cli("audit", directory.toString()), "the directory audits clean");
        try (SegmentedEventStorageEngine reopened = SegmentedEventStorageEngine.open(directory, FsyncPolicy.NEVER,
                SegmentPolicy.DEFAULTS.withSegmentBytes(200_000))) {
            assertEquals(RecoveryReport.CLEAN, reopened.recoveryReport());
            assertTrue(reopened.rolls() == 0 && reopened.closedSegments().size() >= 2);
        }
    }

    @Test
    void serveAndAnEmbeddingHostHoldTheirLocks() throws Exception {
        Path store = dir.resolve("served.jsonl");
        Path pre = write("pre.jsonl", Workload.lines(0, 50, true));
        assertEquals(0, cli("run", pre.toString(), "--store", store.toString(), "-o", dir.resolve("pre.out").toString()));
        Path other = write("other.jsonl", Workload.lines(10_000, 5, false));
        Process served = new ProcessBuilder(command(KvLedgerCli.class.getName(), "serve", "--stdio", "--store", store.toString()))
                .redirectError(dir.resolve("serve.err").toFile()).start();
        try {
            awaitLock(served, store);
            secondWritersAreRefused(store, other);
            served.getOutputStream().close(); // the end of standard input stops it
            assertTrue(served.waitFor(60, TimeUnit.SECONDS));
        } finally {
            served.destroyForcibly();
        }
        assertEquals(0, served.exitValue(), Files.readString(dir.resolve("serve.err")));
        assertIntact(store);

        Path hosted = dir.resolve("hosted.jsonl");
        Process host = new ProcessBuilder(command(AppendingChild.class.getName(), hosted.toString(), "never", "12"))
                .redirectError(dir.resolve("host.err").toFile()).start();
        try {
            awaitLock(host, hosted);
            await().atMost(WAIT).until(() -> Files.size(hosted) > 20_000);
            awaitLock(host, hosted);
            Kvledger second = Kvledger.run(dir, "run", other.toString(), "--store", hosted.toString(), "-o", "/dev/null");
            assertEquals(2, second.exit(), second.stderr());
            assertTrue(second.stderr().contains("locked"), second.stderr());
        } finally {
            host.destroyForcibly().waitFor();
        }
        try (JsonlEventStorageEngine reopened = JsonlEventStorageEngine.open(hosted, FsyncPolicy.NEVER)) {
            assertTrue(reopened.lastSeq() > 0); // a torn end of the killed host is cut, as always
        }
    }

    /** A second {@code run} and a second {@code serve} on the store are refused, and the store's bytes stay as they were. */
    private void secondWritersAreRefused(Path store, Path scenario) throws Exception {
        secondWritersAreRefused(store, scenario, store.toString());
        byte[] before = Files.readAllBytes(store);
        Kvledger serve = Kvledger.run(dir, "serve", "--stdio", "--store", store.toString());
        assertEquals(2, serve.exit(), serve.stderr());
        assertTrue(serve.stderr().contains("locked"), serve.stderr());
        assertEquals(before.length, Files.readAllBytes(store).length);
    }

    /** Waits until the files of a directory stay as they are for a while (the writer's background work is done). */
    private static void settled(Path directory) throws Exception {
        String seen = listing(directory);
        for (int same = 0; same < 3; ) {
            Thread.sleep(200);
            String now = listing(directory);
            same = now.equals(seen) ? same + 1 : 0;
            seen = now;
        }
    }

    private void secondWritersAreRefused(Path store, Path scenario, String location) throws Exception {
        String before = listing(store);
        Kvledger run = Kvledger.run(dir, "run", scenario.toString(), "--store", location, "-o", "/dev/null");
        assertEquals(2, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("locked"), run.stderr());
        assertEquals(before, listing(store), "the refused writer changed nothing");
    }

    /** The files of a store (its bytes, or a directory's names and sizes). */
    private static String listing(Path store) throws IOException {
        if (!Files.isDirectory(store)) {
            return store + " " + Files.size(store);
        }
        try (Stream<Path> files = Files.list(store)) {
            return files.sorted().map(f -> f.getFileName() + " " + f.toFile().length()).toList().toString();
        }
    }

    /** Waits until {@code /proc/locks} shows a POSIX write lock of {@code process} on {@code file}. */
    private static void awaitLock(Process process, Path file) {
        await().atMost(WAIT).until(() -> {
            assertTrue(process.isAlive(), "the first writer ended: " + stderr(process));
            return Files.exists(file) && ProcLocks.holds(process.pid(), file);
        });
    }

    private void assertIntact(Path store) throws Exception {
        assertEquals(0, cli("audit", store.toString()), "the store audits clean");
        try (JsonlEventStorageEngine reopened = JsonlEventStorageEngine.open(store, FsyncPolicy.NEVER)) {
            assertEquals(RecoveryReport.CLEAN, reopened.recoveryReport());
            assertEquals(Files.readAllLines(store).size(), reopened.lastSeq());
        }
    }

    private Path printed() {
        return dir.resolve("printed.jsonl");
    }

    private static boolean lastLineEnds(Path store) throws IOException {
        byte[] bytes = Files.readAllBytes(store);
        return bytes.length > 0 && bytes[bytes.length - 1] == '\n';
    }

    private static int segments(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(directory)) {
            return (int) files.filter(f -> f.getFileName().toString().matches("segment-\\d+\\.jsonl(\\.gz)?")).count();
        }
    }

    private static Path firstSegment(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).sorted().findFirst().orElseThrow();
        }
    }

    private static Thread drain(InputStream in, Path copy) {
        Thread thread = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(copy)) {
                in.transferTo(out);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "drain");
        thread.start();
        return thread;
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static Path mkfifo(Path path) throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        return path;
    }

    private Process start(String... args) throws IOException {
        return new ProcessBuilder(command(KvLedgerCli.class.getName(), args))
                .redirectError(dir.resolve("first-" + System.nanoTime() + ".err").toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static List<String> command(String main, String... args) {
        return KillDuringAppendTest.javaCommand(main, args);
    }

    private static String stderr(Process process) {
        return process.info().commandLine().orElse("?") + " (its stderr is in the test's directory)";
    }

    /** The command line in this process (a reader, or a writer before and after the children). */
    private static int cli(String... args) {
        return KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), args);
    }

    /** A second writer as a child process: its exit code and stderr. */
    record Kvledger(int exit, String stderr) {
        static Kvledger run(Path dir, String... args) throws Exception {
            Path err = Files.createTempFile(dir, "second", ".err");
            Process process = new ProcessBuilder(command(KvLedgerCli.class.getName(), args))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the second writer did not finish");
            return new Kvledger(process.exitValue(), Files.readString(err));
        }
    }
}
