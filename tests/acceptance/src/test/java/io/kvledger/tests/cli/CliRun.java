package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of the command line, in this JVM or as the packaged jar in a child process: exit code, stdout lines, stderr.
 * The one runner of the jar for the acceptance tests (the failure and fuzz tests use it too).
 */
public record CliRun(int exit, List<String> stdout, String stderr) {

    public static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        String text = out.toString(StandardCharsets.UTF_8);
        List<String> lines = text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
        return new CliRun(exit, lines, err.toString(StandardCharsets.UTF_8));
    }

    /** {@code java -jar kvledger.jar ARGS} as the launcher runs it, in {@code dir}, which also takes its stdout and stderr. */
    public static CliRun ofJar(Path dir, String... args) throws IOException, InterruptedException {
        return ofJar(dir, List.of(), args);
    }

    /** {@code java JVM_OPTIONS -jar kvledger.jar ARGS} in {@code dir}, which also takes its stdout and stderr. */
    public static CliRun ofJar(Path dir, List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        return run(dir, dir.resolve("stdout").toFile(), dir.resolve("stderr"), jvmOptions, args);
    }

    /**
     * {@code java JVM_OPTIONS -jar kvledger.jar ARGS} in this JVM's directory, its stdout to {@code stdout} (a file,
     * {@code /dev/full}, ...) and its stderr to a new file in {@code dir}; stdout's lines are read back when it is a
     * regular file under 64 MB, else there are none.
     */
    public static CliRun ofJarTo(File stdout, Path dir, List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        return run(null, stdout, Files.createTempFile(dir, "stderr", ".txt"), jvmOptions, args);
    }

    /** The jar the build packaged (the {@code kvledger.jar} property, set by this module's pom). */
    public static Path jar() {
        Path jar = Path.of(System.getProperty("kvledger.jar", "../../infrastructure/cli/target/kvledger.jar")).toAbsolutePath();
        assertTrue(Files.exists(jar), jar + " is missing: build it with mvn verify (or package) from the root");
        return jar;
    }

    /** {@code JAVA JVM_OPTIONS -jar kvledger.jar ARGS}, with this JVM's java. */
    public static List<String> javaCommand(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar().toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** The jar as a child process in {@code directory} ({@code null}: this JVM's), killed after 120 s. */
    private static CliRun run(Path directory, File stdout, Path stderr, List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(javaCommand(jvmOptions, args))
                .redirectOutput(stdout).redirectError(stderr.toFile());
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kvledger " + String.join(" ", args) + " did not end within 120 s");
        }
        List<String> lines = stdout.isFile() && stdout.length() < (64 << 20)
                ? Files.readAllLines(stdout.toPath(), StandardCharsets.UTF_8) : List.of();
        return new CliRun(process.exitValue(), lines, Files.readString(stderr, StandardCharsets.UTF_8));
    }
}
