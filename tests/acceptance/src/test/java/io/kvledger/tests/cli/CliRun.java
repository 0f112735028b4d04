package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One run of the command line, in this JVM or as the packaged jar in a child process: exit code, stdout lines, stderr. */
record CliRun(int exit, List<String> stdout, String stderr) {

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        String text = out.toString(StandardCharsets.UTF_8);
        List<String> lines = text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
        return new CliRun(exit, lines, err.toString(StandardCharsets.UTF_8));
    }

    /** {@code java -jar kvledger.jar ARGS} as the launcher runs it, in {@code dir}, which also takes its stdout and stderr. */
    static CliRun ofJar(Path dir, String... args) throws IOException, InterruptedException {
        return ofJar(dir, List.of(), args);
    }

    /**
     * {@code java JVM_OPTIONS -jar kvledger.jar ARGS} in {@code dir}, which also takes its stdout and stderr; the jar is
     * the one the build packaged (the {@code kvledger.jar} property, set by this module's pom).
     */
    static CliRun ofJar(Path dir, List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("kvledger.jar", "../../infrastructure/cli/target/kvledger.jar")).toAbsolutePath();
        assertTrue(Files.exists(jar), jar + " is missing: build it with mvn verify (or package) from the root");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(List.of(args));
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kvledger " + String.join(" ", args) + " did not end within 120 s");
        }
        return new CliRun(process.exitValue(), Files.readAllLines(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }
}
