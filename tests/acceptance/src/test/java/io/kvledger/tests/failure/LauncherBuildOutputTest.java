package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 7: the launcher's build leaks no colour codes into stderr. The real launcher script runs
 * in a copy of the project root whose {@code mvn} prints colour codes as Maven does and then builds the jar
 * (by copying the real one); a failed build is shown without them.
 */
class LauncherBuildOutputTest {

    @TempDir
    Path root;

    @Test
    void aBuildPrintsNoColourCodesAndAFailedBuildIsShownWithoutThem() throws Exception {
        Files.copy(Path.of("../../kvledger"), root.resolve("kvledger"));
        Files.writeString(root.resolve("pom.xml"), "<project/>\n");
        Path bin = Files.createDirectory(root.resolve("bin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/usr/bin/env bash\n"
                + "printf '\\033[0m\\033[0m' ; printf '\\033[1;31m[ERROR]\\033[0m oops\\n' >&2\n"
                + "if [[ -n \"${FAIL_BUILD:-}\" ]]; then exit 1; fi\n"
                + "mkdir -p infrastructure/cli/target && cp '" + Kvledger.jar().toAbsolutePath() + "' infrastructure/cli/target/kvledger.jar\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));

        String[] built = launch(bin, false);
        String[] failed = launch(bin, true);

        assertEquals("0", built[0], built[1]);
        assertFalse(built[1].contains("\033"), "no colour codes: " + built[1]);
        assertTrue(built[2].startsWith("kvledger 0.1.0"), built[2]);
        assertEquals("2", failed[0], failed[1]);
        assertFalse(failed[1].contains("\033"), failed[1]);
        assertTrue(failed[1].contains("[ERROR] oops") && failed[1].contains("kvledger: the build failed"), failed[1]);
    }

    /** Exit code, stderr and stdout of {@code kvledger --version}, built afresh. */
    private String[] launch(Path bin, boolean failBuild) throws Exception {
        Files.deleteIfExists(root.resolve("infrastructure/cli/target/kvledger.jar"));
        ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("kvledger").toString(), "--version");
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put("KVLEDGER_JAVA_OPTS", "-Xmx128m");
        if (failBuild) {
            builder.environment().put("FAIL_BUILD", "1");
        }
        Path err = root.resolve("err");
        Path out = root.resolve("out");
        Process process = builder.directory(root.toFile()).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), Files.readString(err, StandardCharsets.UTF_8),
                Files.readString(out, StandardCharsets.UTF_8)};
    }
}
