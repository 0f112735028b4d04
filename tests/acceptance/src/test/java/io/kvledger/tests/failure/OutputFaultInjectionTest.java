package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults on output, for every command that writes: a full disk (a 64 KiB tmpfs mounted by the test, as
 * root; where mounting is refused, {@code /dev/full}), a read-only file system, a closed pipe. The
 * user gets exit 2 and a message naming the file (141 and silence for a closed pipe, as a program
 * killed by SIGPIPE), and an existing output file is left as it was.
 */
class OutputFaultInjectionTest {

    @TempDir
    static Path dir;

    private static Path full;
    private static Path storeFull;
    private static Path readOnly;
    private static boolean mounted;
    private static Path bigScenario;

    @BeforeAll
    static void mountSmallFileSystems() throws Exception {
        full = Files.createDirectory(dir.resolve("full"));
        storeFull = Files.createDirectory(dir.resolve("store-full"));
        readOnly = Files.createDirectory(dir.resolve("read-only"));
        mounted = mount("size=64k", full) && mount("size=64k", storeFull) && mount("size=64k,ro", readOnly);
        bigScenario = dir.resolve("big.jsonl");
        Kvledger.Result made = Kvledger.inProcess("simulate", "--requests", "60", "--seed", "3",
                "-o", dir.resolve("sim.jsonl").toString(), "--scenario", bigScenario.toString());
        assertEquals(0, made.exit(), made.toString());
    }

    @AfterAll
    static void unmount() throws Exception {
        if (mounted) {
            run("umount", full.toString());
            run("umount", storeFull.toString());
            run("umount", readOnly.toString());
        }
    }

    /** Every command that writes a file, writing {@code target}. */
    private static List<String[]> writers(Path target) throws IOException {
        String register = "{\"cmd\": \"RegisterRequest\", \"requestId\": \"" + "r".repeat(40_000) + "\", \"promptTokens\": [1]}\n";
        Path shrinkable = Files.writeString(dir.resolve("shrink-me.jsonl"),
                register + "{\"cmd\": \"AbortRequest\", \"requestId\": \"x\"}\n" + register);
        return List.of(new String[] {"run", bigScenario.toString(), "-o", target.toString()},
                new String[] {"simulate", "--requests", "60", "-o", target.toString()},
                new String[] {"simulate", "--requests", "60", "-o", dir.resolve("ok.jsonl").toString(), "--scenario", target.toString()},
                new String[] {"shrink", shrinkable.toString(), "--until", "DUPLICATE_REQUEST", "-o", target.toString()});
    }

    @Test
    void aFullDiskIsExitTwoAndLeavesTheExistingFileAsItWas() throws Exception {
        if (!mounted) {
            devFullIsExitTwoAndStaysADevice();
            return;
        }
        Path target = Files.writeString(full.resolve("out.jsonl"), "precious\n");
        Path filler = fill(full);
        for (String[] args : writers(target)) {
            Files.writeString(target, "precious\n");

            Kvledger.Result result = Kvledger.inProcess(args);

            String what = String.join(" ", args);
            assertEquals(2, result.exit(), what + ": " + result);
            assertTrue(result.stderr().contains("cannot write " + target + ": No space left on device"), what + ": " + result.stderr());
            assertTrue(result.quiet(), result.stderr());
            assertEquals("precious\n", Files.readString(target), what);
            assertEquals(List.of(filler, target), list(full).stream().sorted().toList(), what + ": no temporary file is left");
        }
    }

    @Test
    void aFullDiskUnderTheStoreIsExitTwoAndKeepsEveryEventWritten() throws Exception {
        if (!mounted) {
            devFullIsExitTwoAndStaysADevice();
            return;
        }
        Path store = storeFull.resolve("store.jsonl");

        Kvledger.Result result = Kvledger.inProcess("run", bigScenario.toString(), "--store", store.toString(),
                "-o", dir.resolve("events.jsonl").toString());

        assertEquals(2, result.exit(), result.toString());
        assertTrue(result.stderr().contains("the store cannot be written"), result.stderr());
        assertTrue(result.quiet(), result.stderr());
        Path copy = dir.resolve("store-copy.jsonl");
        Files.copy(store, copy);
        Files.delete(store);
        Kvledger.Result reopened = Kvledger.inProcess("run", Files.writeString(dir.resolve("reset.jsonl"),
                "{\"cmd\": \"ResetCache\"}\n").toString(), "--store", copy.toString());
        assertEquals(0, reopened.exit(), "the store opens again, a torn end cut: " + reopened);
        assertEquals(0, Kvledger.inProcess("audit", copy.toString()).exit(), "and what it keeps is a consistent log");
    }

    @Test
    void aReadOnlyFileSystemIsExitTwoNamingTheFile() throws Exception {
        if (!mounted) {
            devFullIsExitTwoAndStaysADevice();
            return;
        }
        Path target = readOnly.resolve("out.jsonl");
        List<String[]> commands = new ArrayList<>(writers(target));
        commands.add(new String[] {"run", Examples.prefillDecode(), "--store", target.toString()});
        for (String[] args : commands) {
            Kvledger.Result result = Kvledger.inProcess(args);

            String what = String.join(" ", args);
            assertEquals(2, result.exit(), what + ": " + result);
            assertTrue(result.stderr().contains(target.toString()) && result.stderr().contains("Read-only file system"),
                    what + ": " + result.stderr());
            assertTrue(result.quiet(), result.stderr());
        }
    }

    @Test
    void devFullIsExitTwoAndStaysADevice() throws Exception {
        Path devFull = Path.of("/dev/full");
        for (String[] args : writers(devFull)) {
            Kvledger.Result result = Kvledger.inProcess(args);

            String what = String.join(" ", args);
            assertEquals(2, result.exit(), what + ": " + result);
            assertTrue(result.stderr().contains("cannot write /dev/full: No space left on device"), what + ": " + result.stderr());
            assertTrue(Files.exists(devFull) && !Files.isRegularFile(devFull), "/dev/full is never replaced by a file");
        }
    }

    @Test
    void aClosedPipeEndsQuietlyWithThePipesStatus() throws Exception {
        List<String[]> commands = List.of(new String[] {"run", bigScenario.toString()},
                new String[] {"simulate", "--requests", "60"});
        for (String[] args : commands) {
            Kvledger.Result result = Kvledger.pipeline(dir, "head -c 1", args);

            String what = String.join(" ", args);
            assertEquals(141, result.exit(), what + ": " + result);
            assertEquals("", result.stderr().strip(), what + ": quiet");
        }
    }

    @Test
    void aClosedPipeInProcessIsTheSame() throws Exception {
        Kvledger.Result result = Kvledger.inProcess(FullOutputStream.closedPipe(100), "run", bigScenario.toString());

        assertEquals(141, result.exit(), result.toString());
        assertEquals("", result.stderr());
    }

    /** Fills the file system to its last byte. */
    private static Path fill(Path directory) throws IOException {
        Path filler = directory.resolve("filler");
        try (java.io.OutputStream out = Files.newOutputStream(filler)) {
            byte[] page = new byte[4096];
            while (true) {
                out.write(page);
                out.flush();
            }
        } catch (IOException full) {
            return filler;
        }
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }

    private static boolean mount(String options, Path at) throws Exception {
        return run("mount", "-t", "tmpfs", "-o", options, "tmpfs", at.toString()) == 0;
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return process.exitValue();
    }
}
