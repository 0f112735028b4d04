package io.kvledger.tests.embedding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host example's README gives the commands that build it by hand: install kvledger, then
 * {@code examples/embedded-host/build}. Without kvledger's artifacts that command fails (a real Maven, offline,
 * on an empty local repository) and names the install command for the repository it was given. With them it
 * compiles the example and runs its tests: kvledger's own build runs it so ({@code examples/pom.xml}).
 */
class EmbeddedHostBuildTest {

    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theReadmeGivesTheInstallThenTheBuildCommand() throws Exception {
        String readme = Files.readString(ROOT.resolve("examples/embedded-host/README.md"));
        assertTrue(readme.contains("```sh\nmvn -B install -DskipTests -Dmaven.repo.local=\"$HOME/kvledger-repo\"\n"
                + "examples/embedded-host/build -Dmaven.repo.local=\"$HOME/kvledger-repo\"\n```"), readme);
        String build = Files.readString(ROOT.resolve("examples/pom.xml"));
        assertTrue(build.contains("<executable>${project.basedir}/embedded-host/build</executable>"),
                "kvledger's build runs the documented command");
        assertTrue(Files.readString(ROOT.resolve("examples/embedded-host/pom.xml"))
                .contains("<kvledger.version>" + version() + "</kvledger.version>"), "the example takes this version");
    }

    /** The version kvledger builds. */
    private static String version() throws Exception {
        java.util.regex.Matcher parent = java.util.regex.Pattern.compile(
                "<artifactId>kvledger-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertTrue(parent.find(), "the root pom's version");
        return parent.group(1);
    }

    @Test
    void withoutKvledgersArtifactsTheBuildFailsNamingTheInstallCommand() throws Exception {
        Path repository = Files.createDirectories(dir.resolve("empty-repo"));
        Process build = new ProcessBuilder(List.of(ROOT.resolve("examples/embedded-host/build").toString(), "-o",
                "-Dmaven.repo.local=" + repository)).redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile()).start();
        assertTrue(build.waitFor(300, TimeUnit.SECONDS), "the build ends");
        String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
        String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);

        assertNotEquals(0, build.exitValue(), out);
        assertTrue(out.contains("io.kvledger:kvledger-bom:pom:"), out);
        assertEquals(List.of("embedded-host: kvledger " + version() + " is not installed in the local repository; install it"
                        + " first, at kvledger's root:", "  mvn -B install -DskipTests -Dmaven.repo.local=" + repository),
                err.lines().toList(), err);
    }
}
