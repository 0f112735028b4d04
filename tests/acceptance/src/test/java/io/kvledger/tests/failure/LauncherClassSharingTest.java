package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's start-up archive: a command's first run after a build lists the classes it loads, the second
 * dumps a static class-data-sharing archive of them under target/ and maps it, later runs map it, and none of
 * this changes what the command prints or how it exits. An archive is dumped apart from any run, since Java 17
 * archives a dumping run's compilation marks: its runs then compile what runs without one compiles. The real
 * launcher runs in a copy of the project root that holds the real jar, so it builds nothing.
 */
class LauncherClassSharingTest {

    @TempDir
    Path root;

    @Test
    void theFirstRunLeavesAnArchiveAndLaterRunsPrintAndExitTheSame() throws Exception {
        Path target = Kvledger.launcherRoot(root);
        Path scenario = Files.copy(Path.of("src/test/resources/examples/05_abort_mid_prefill.jsonl"), root.resolve("s.jsonl"));
        Path archive = target.resolve("cds/run.jsa");

        String[] first = launch("run", scenario.toString());
        assertFalse(Files.exists(archive), "the first run dumps nothing");
        assertEquals(1, files(archive.getParent(), "run.", ".classlist"), "it lists the classes it loaded");
        // Another run's list left behind (no pid is that high, so its run has ended); it sorts after this run's.
        Files.createFile(archive.getParent().resolve("run.99999999.classlist"));
        String[] second = launch("run", scenario.toString());
        assertEquals(STATIC_ARCHIVE, magic(archive), "the second run dumped a static archive");
        assertEquals(0, files(archive.getParent(), "run.", ".classlist"), "from the list; every ended list is gone");
        String[] third = launch("run", scenario.toString());
        String[] plain = launch("run", scenario.toString(), "KVLEDGER_CDS=off");

        assertEquals("0", first[0], first[1]);
        assertEquals(plain[2], first[2], "the listing run prints what a run without an archive prints");
        for (String[] onTheArchive : List.of(second, third)) {
            assertEquals(plain[2], onTheArchive[2], "a run on the archive prints what a run without one prints");
            assertEquals(plain[1], onTheArchive[1]);
            assertFalse(onTheArchive[2].contains("[cds]") || onTheArchive[1].contains("[cds]"),
                    "no JVM sharing messages: " + onTheArchive[1]);
        }
        assertEquals(0, files(archive.getParent(), "", ".partial"), "no partial archive left");

        String[] bad = launch("audit", root.resolve("missing.jsonl").toString());
        String[] badAgain = launch("audit", root.resolve("missing.jsonl").toString());
        assertEquals("2", bad[0], bad[1]);
        assertEquals(bad[0] + bad[1], badAgain[0] + badAgain[1], "the exit code and message are the archive's too");
    }

    /**
     * A run with an agent (a debugger's here, a profiler's when measuring) gets its archive too: the dump, which
     * refuses agents, runs without it, and the runs on the archive keep theirs.
     */
    @Test
    void aRunWithAnAgentStillGetsItsArchive() throws Exception {
        Path target = Kvledger.launcherRoot(root);
        Path scenario = Files.copy(Path.of("src/test/resources/examples/05_abort_mid_prefill.jsonl"), root.resolve("s.jsonl"));
        String debugger = "KVLEDGER_JAVA_OPTS=-Xmx256m -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0";
        String[] plain = launch("run", scenario.toString(), "KVLEDGER_CDS=off");
        for (int run = 0; run < 2; run++) {
            String[] withAgent = launch("run", scenario.toString(), debugger);
            assertEquals("0", withAgent[0], withAgent[1]);
            assertTrue(withAgent[2].endsWith(plain[2]), "the run's output after the debugger's line: " + withAgent[2]);
        }
        assertEquals(STATIC_ARCHIVE, magic(target.resolve("cds/run.jsa")), "dumped without the agent");
    }

    private static final int STATIC_ARCHIVE = 0xf00baba2;   // CDS_ARCHIVE_MAGIC; a dynamic archive's is 0xf00baba8

    /** The first four bytes of a file, little-endian (0 when it has fewer). */
    private static int magic(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        return bytes.length < 4 ? 0 : java.nio.ByteBuffer.wrap(bytes, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** Files in {@code dir} named {@code prefix...suffix}. */
    private static long files(Path dir, String prefix, String suffix) throws Exception {
        try (var listed = Files.list(dir)) {
            return listed.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix) && n.endsWith(suffix)).count();
        }
    }

    /** Exit code, stderr and stdout of the launcher; {@code env} may end the arguments as NAME=VALUE. */
    private String[] launch(String... args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder();
        builder.command().add("bash");
        builder.command().add(root.resolve("kvledger").toString());
        builder.environment().put("KVLEDGER_JAVA_OPTS", "-Xmx256m");
        for (String arg : args) {
            if (arg.startsWith("KVLEDGER_CDS=") || arg.startsWith("KVLEDGER_JAVA_OPTS=")) {
                builder.environment().put(arg.substring(0, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            } else {
                builder.command().add(arg);
            }
        }
        Path err = root.resolve("err");
        Path out = root.resolve("out");
        Process process = builder.directory(root.toFile()).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), Files.readString(err, StandardCharsets.UTF_8),
                Files.readString(out, StandardCharsets.UTF_8)};
    }
}
