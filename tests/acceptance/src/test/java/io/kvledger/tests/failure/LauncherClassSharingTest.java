package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's start-up archive: a command's first run after a build leaves a class-data-sharing archive
 * under target/, later runs map it, and none of this changes what the command prints or how it exits. The
 * real launcher runs in a copy of the project root that holds the real jar, so it builds nothing.
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
        assertTrue(Files.size(archive) > 0, "the first run leaves an archive");
        String[] second = launch("run", scenario.toString());
        String[] plain = launch("run", scenario.toString(), "KVLEDGER_CDS=off");

        assertEquals("0", first[0], first[1]);
        assertEquals(plain[2], first[2], "the archiving run prints what a run without an archive prints");
        assertEquals(plain[2], second[2], "a run on the archive prints what a run without one prints");
        assertEquals(plain[1], second[1]);
        assertFalse(second[2].contains("[cds]") || second[1].contains("[cds]"), "no JVM sharing messages: " + second[1]);
        try (var left = Files.list(archive.getParent())) {
            assertEquals(0, left.filter(path -> path.toString().endsWith(".partial")).count(), "no partial archive left");
        }

        String[] bad = launch("audit", root.resolve("missing.jsonl").toString());
        String[] badAgain = launch("audit", root.resolve("missing.jsonl").toString());
        assertEquals("2", bad[0], bad[1]);
        assertEquals(bad[0] + bad[1], badAgain[0] + badAgain[1], "the exit code and message are the archive's too");
    }

    /** Exit code, stderr and stdout of the launcher; {@code env} may end the arguments as NAME=VALUE. */
    private String[] launch(String... args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder();
        builder.command().add("bash");
        builder.command().add(root.resolve("kvledger").toString());
        for (String arg : args) {
            if (arg.startsWith("KVLEDGER_CDS=")) {
                builder.environment().put("KVLEDGER_CDS", arg.substring("KVLEDGER_CDS=".length()));
            } else {
                builder.command().add(arg);
            }
        }
        builder.environment().put("KVLEDGER_JAVA_OPTS", "-Xmx256m");
        Path err = root.resolve("err");
        Path out = root.resolve("out");
        Process process = builder.directory(root.toFile()).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), Files.readString(err, StandardCharsets.UTF_8),
                Files.readString(out, StandardCharsets.UTF_8)};
    }
}
