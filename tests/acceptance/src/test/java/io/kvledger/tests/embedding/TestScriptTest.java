package io.kvledger.tests.embedding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command ({@code ./test}, which {@code .ci/run} calls) on a machine of the README's kind: it
 * installs the Debian packages the suite needs when run as root, names them and runs nothing otherwise, then
 * runs {@code mvn -B verify} with the arguments it was given. The script runs as a real process; {@code id},
 * {@code python3}, {@code apt-get} and {@code mvn} are stand-ins first on its PATH that record their calls.
 */
class TestScriptTest {

    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    @TempDir
    Path dir;
    private Path bin;
    private Path calls;
    private Path pgBin;

    @BeforeEach
    void standIns() throws IOException {
        bin = Files.createDirectories(dir.resolve("bin"));
        calls = dir.resolve("calls");
        Files.createFile(calls);
        pgBin = Files.createDirectories(dir.resolve("pg"));
        executable(pgBin.resolve("initdb"), "exit 0");
        executable(bin.resolve("apt-get"), "echo \"apt-get $*\" >> '" + calls + "'");
        executable(bin.resolve("mvn"), "echo \"mvn $*\" >> '" + calls + "'");
    }

    @Test
    void asRootItInstallsPrometheusParserThenRunsTheSuiteWithTheGivenArguments() throws Exception {
        user(0);
        python(false);

        Run run = run("./test", "-pl", "infrastructure/serve", "-am", "-Dtest=PrometheusTextFormatTest");

        assertEquals(0, run.exit, run.err);
        assertEquals(List.of("apt-get update -qq",
                "apt-get install -y -qq --no-install-recommends python3-prometheus-client",
                "mvn -B verify -pl infrastructure/serve -am -Dtest=PrometheusTextFormatTest"), Files.readAllLines(calls));
        assertTrue(run.err.contains("installing python3-prometheus-client"), run.err);
    }

    @Test
    void asAnotherUserItNamesTheMissingPackageAndRunsNothing() throws Exception {
        user(1000);
        python(false);

        Run run = run("./test");

        assertEquals(1, run.exit, run.err);
        assertTrue(run.err.contains("needs the Debian packages python3-prometheus-client")
                && run.err.contains("sudo apt-get install python3-prometheus-client"), run.err);
        assertEquals(List.of(), Files.readAllLines(calls));
    }

    @Test
    void withEverythingPresentItOnlyRunsTheSuite() throws Exception {
        user(1000);
        python(true);

        Run run = run("./test", "-o", "-pl", "domain");

        assertEquals(0, run.exit, run.err);
        assertEquals(List.of("mvn -B verify -o -pl domain"), Files.readAllLines(calls));
    }

    @Test
    void aPostgresqlDirectoryWithoutServerBinariesIsNamed() throws Exception {
        user(0);
        python(true);
        Path empty = Files.createDirectories(dir.resolve("nothing"));

        Run run = run(Map.of("KVLEDGER_PG_BIN", empty.toString()), "./test");

        assertEquals(1, run.exit, run.err);
        assertTrue(run.err.contains("KVLEDGER_PG_BIN=" + empty + " holds no initdb"), run.err);
        assertEquals(List.of(), Files.readAllLines(calls));
    }

    @Test
    void theCiEntryPointIsTheSameScript() throws Exception {
        user(0);
        python(false);

        Run run = run(".ci/run", "-Pmutation");

        assertEquals(0, run.exit, run.err);
        assertEquals(List.of("apt-get update -qq",
                "apt-get install -y -qq --no-install-recommends python3-prometheus-client",
                "mvn -B verify -Pmutation"), Files.readAllLines(calls));
    }

    private void user(int uid) throws IOException {
        executable(bin.resolve("id"), "echo " + uid);
    }

    /** A python3 of a recent version, with or without Prometheus' parser. */
    private void python(boolean withPrometheus) throws IOException {
        executable(bin.resolve("python3"),
                withPrometheus ? "exit 0" : "case \"$*\" in *prometheus_client*) exit 1;; *) exit 0;; esac");
    }

    private Run run(String script, String... args) throws Exception {
        return run(Map.of("KVLEDGER_PG_BIN", pgBin.toString()), script, args);
    }

    private Run run(Map<String, String> env, String script, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(ROOT.resolve(script).toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().remove("KVLEDGER_PG_BIN");
        builder.environment().putAll(env);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the script ends");
        return new Run(process.exitValue(), Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
    }

    private static void executable(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private record Run(int exit, String err) {
    }
}
