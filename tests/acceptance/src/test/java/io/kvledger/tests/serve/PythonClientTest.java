package io.kvledger.tests.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.KvLedger;
import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.log.EventLogWriter;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Python client's own test suite ({@code python3 -m unittest discover} in clients/python), which
 * starts real {@code kvledger serve} child processes (the command line's main class, on this module's
 * classpath) and drives them. The
 * logs {@code kvledger run} writes for the shared examples are made here first, in process, so the Python
 * suite does not start a JVM per example for them. Python's output is shown when it fails.
 */
class PythonClientTest {

    @TempDir
    Path dir;

    @Test
    void thePythonClientsTestsPass() throws Exception {
        Path client = Path.of(System.getProperty("kvledger.pythonClient"));
        Path examples = Path.of(PythonClientTest.class.getResource("/examples").toURI());
        Path runLogs = Files.createDirectories(dir.resolve("run-logs"));
        writeRunLogs(examples, runLogs);
        Path output = dir.resolve("python.out");
        ProcessBuilder python = new ProcessBuilder("python3", "-m", "unittest", "discover", "-s", "tests", "-t", ".", "-v")
                .directory(client.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        python.environment().put("KVLEDGER_CLASSPATH", System.getProperty("java.class.path"));
        python.environment().put("KVLEDGER_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Short-lived servers: the quick JIT tier starts them faster; small heaps on a shared machine.
        python.environment().put("KVLEDGER_JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m");
        python.environment().put("KVLEDGER_EXAMPLES", examples.toString());
        python.environment().put("KVLEDGER_RUN_LOGS", runLogs.toString());
        python.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process process = python.start();
        boolean ended = process.waitFor(10, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        String out = Files.readString(output, StandardCharsets.UTF_8);
        System.out.println(out);
        assertEquals(0, ended ? process.exitValue() : -1, () -> "python3 -m unittest failed:\n" + out);
        // Every test of every test module ran (a module that failed to load would not be counted as a test).
        java.util.regex.Matcher ran = java.util.regex.Pattern.compile("Ran (\\d+) tests?").matcher(out);
        org.junit.jupiter.api.Assertions.assertTrue(ran.find(), out);
        assertEquals(testMethods(client.resolve("tests")), Integer.parseInt(ran.group(1)), out);
    }

    /** The {@code def test_...} methods of the suite's {@code test_*.py} modules. */
    private static int testMethods(Path tests) throws Exception {
        int count = 0;
        try (Stream<Path> files = Files.list(tests)) {
            for (Path module : files.filter(p -> p.getFileName().toString().matches("test_.*\\.py")).toList()) {
                count += (int) Files.readAllLines(module).stream().filter(l -> l.strip().startsWith("def test_")).count();
            }
        }
        return count;
    }

    private static void writeRunLogs(Path examples, Path into) throws Exception {
        ScenarioRunner runner = new ScenarioRunner(config -> {
            KvLedger.Builder builder = KvLedger.builder();
            config.ifPresent(builder::config);
            return builder.build();
        });
        try (Stream<Path> files = Files.list(examples)) {
            for (Path scenario : files.filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(".expect.jsonl")).toList()) {
                try (InputStream in = Files.newInputStream(scenario);
                     Writer out = Files.newBufferedWriter(into.resolve(scenario.getFileName()), StandardCharsets.UTF_8)) {
                    runner.run(in, new EventLogWriter(out));
                }
            }
        }
    }
}
