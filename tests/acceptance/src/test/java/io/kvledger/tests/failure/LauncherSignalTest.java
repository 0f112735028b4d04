package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signal to the launcher is the JVM's: the launcher execs java on every run, the one that lists the classes for
 * the start-up archive included, so SIGTERM to the launcher's pid stops the command (a server, a long simulation)
 * and leaves no JVM behind. The archive is dumped before that exec, in a JVM of its own that has ended by then; a
 * list a killed run left torn, an archive a killed dump left half-written and a dump's leftover partial file never
 * block a start, and a later start dumps again. The real launcher runs in a copy of the project root that holds
 * the real jar, as in {@link LauncherClassSharingTest}.
 */
class LauncherSignalTest {

    /** The first bytes of a whole static archive (the dump renames it into place once written). */
    private static final byte[] MAGIC = {(byte) 0xa2, (byte) 0xab, 0x0b, (byte) 0xf0};   // 0xf00baba2, little-endian

    @TempDir
    Path root;

    private Path cds;

    @BeforeEach
    void copyTheLauncherAndJar() throws Exception {
        Path target = Kvledger.launcherRoot(root);
        cds = target.resolve("cds");
    }

    @Test
    void sigtermStopsAServeOnTheListingFirstRunAndOnLaterRuns() throws Exception {
        Path archive = cds.resolve("serve.jsa");
        assertFalse(Files.exists(archive));

        terminateWhenServing();
        assertFalse(Files.exists(archive), "the first run dumps nothing");
        assertTrue(listing().contains(".classlist"), "the JVM stopped by SIGTERM listed its classes: " + listing());

        terminateWhenServing();   // this one dumps the archive from the list, then maps it
        assertTrue(whole(archive), listing());
        assertFalse(listing().contains(".classlist"), listing());

        terminateWhenServing();   // this one maps it
        assertTrue(whole(archive));
    }

    @Test
    void sigtermStopsALongSimulationOnItsListingRun() throws Exception {
        Process launcher = start(List.of("simulate", "--requests", "100000000", "--seed", "7"));
        Thread.sleep(3000);
        assertTrue(launcher.isAlive(), "a simulation of 10^8 requests is still running");
        terminate(launcher);
    }

    @Test
    void aKilledRunOrDumpNeverBlocksALaterStartWhichGetsAnArchive() throws Exception {
        Path archive = cds.resolve("serve.jsa");
        Process killed = startServing();
        killed.destroyForcibly();   // SIGKILL: its class list stops where it was
        assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
        assertFalse(whole(archive));
        terminateWhenServing();   // dumps from that list (or drops it and lists again)
        terminateWhenServing();
        assertTrue(whole(archive), "an archive by the third start: " + listing());

        // What a dump killed while writing leaves: an archive without its header, and its partial file.
        Files.write(archive, new byte[64 * 1024]);
        Path partial = Files.write(cds.resolve("serve.jsa.4242.partial"), new byte[1024]);
        Files.setLastModifiedTime(partial, java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(600)));
        terminateWhenServing();
        terminateWhenServing();
        assertTrue(whole(archive), "a later start dumped again over the half-written archive: " + listing());
        assertFalse(Files.exists(partial), "the killed dump's partial file is gone");

        Path scenario = Files.copy(Path.of("src/test/resources/examples/05_abort_mid_prefill.jsonl"), root.resolve("s.jsonl"));
        Files.write(cds.resolve("run.jsa"), new byte[4096]);
        for (int attempt = 0; attempt < 2; attempt++) {
            Process run = start(List.of("run", scenario.toString(), "-o", root.resolve("out.jsonl").toString()));
            assertTrue(run.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, run.exitValue(), "a run over a half-written archive works");
        }
        assertTrue(whole(cds.resolve("run.jsa")));
    }

    @Test
    void noArgumentsShowTheUsageAndExit2() throws Exception {
        Process launcher = start(List.of());
        launcher.getOutputStream().close();
        assertTrue(launcher.waitFor(120, TimeUnit.SECONDS));
        String err = new String(launcher.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String out = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, launcher.exitValue(), err);
        assertFalse(err.contains("unbound variable"), err);
        assertTrue((out + err).contains("Usage: kvledger"), out + err);
    }

    private void terminateWhenServing() throws Exception {
        terminate(startServing());
    }

    /** A launched {@code serve --stdio}, once it says it serves (its stdin stays open). */
    private Process startServing() throws Exception {
        Process launcher = start(List.of("serve", "--stdio"));
        BufferedReader err = new BufferedReader(new InputStreamReader(launcher.getErrorStream(), StandardCharsets.UTF_8));
        String line = err.readLine();
        assertTrue(line != null && line.contains("serving"), "serve started: " + line);
        return launcher;
    }

    /** SIGTERM to the launcher's pid: it ends, and no process it started outlives it. */
    private static void terminate(Process launcher) throws Exception {
        List<ProcessHandle> started = launcher.descendants().toList();
        launcher.destroy();   // SIGTERM
        assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "the launcher ended on SIGTERM");
        for (ProcessHandle child : started) {
            boolean gone = child.onExit().completeOnTimeout(child, 10, TimeUnit.SECONDS).thenApply(h -> !h.isAlive()).get();
            if (!gone) {
                child.destroyForcibly();
            }
            assertTrue(gone, "a process the launcher started outlived it: " + child.info().commandLine().orElse("?"));
        }
        assertEquals(List.of(), started, "the launcher is the JVM itself (exec), with no child processes");
    }

    private Process start(List<String> args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder();
        builder.command().add("bash");
        builder.command().add(root.resolve("kvledger").toString());
        builder.command().addAll(args);
        builder.environment().put("KVLEDGER_JAVA_OPTS", "-Xmx256m");
        builder.environment().remove("KVLEDGER_CDS");
        return builder.directory(root.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private String listing() throws Exception {
        if (!Files.isDirectory(cds)) {
            return "no " + cds;
        }
        try (var files = Files.list(cds)) {
            return files.map(p -> p.getFileName() + " " + p.toFile().length()).toList().toString();
        }
    }

    private static boolean whole(Path archive) throws Exception {
        if (!Files.isRegularFile(archive) || Files.size(archive) < MAGIC.length) {
            return false;
        }
        return Arrays.equals(MAGIC, Arrays.copyOf(Files.readAllBytes(archive), MAGIC.length));
    }
}
