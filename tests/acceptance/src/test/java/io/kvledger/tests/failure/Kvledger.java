package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.tests.cli.CliRun;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The command line in process (to any stdout) or as the packaged jar in a child process. */
final class Kvledger {

    /** One run: exit code, stdout, stderr. */
    record Result(int exit, String stdout, String stderr) {
        List<String> lines() {
            return stdout.isEmpty() ? List.of() : Arrays.asList(stdout.split("\n"));
        }

        /** No raw exception reached the user: no stack trace, no exception class name. */
        boolean quiet() {
            return !stderr.contains("\tat ") && !stderr.contains("Exception") && !stderr.contains("Error:")
                    && !stderr.contains("StreamReadConstraints") && !stderr.contains("FAIL_ON_");
        }

        @Override
        public String toString() {
            return "exit " + exit + ", stderr: " + stderr;
        }
    }

    private Kvledger() {
    }

    static Result inProcess(String... args) {
        return inProcess(new ByteArrayOutputStream(), args);
    }

    /** In process, writing stdout to {@code out} (a failing stream, for fault injection). */
    static Result inProcess(OutputStream out, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        String stdout = out instanceof ByteArrayOutputStream bytes ? bytes.toString(StandardCharsets.UTF_8) : "";
        return new Result(exit, stdout, err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A copy of the project root for the real launcher: the launcher and the real jar (older than now, so the
     * launcher builds nothing); returns the jar's folder ({@code infrastructure/cli/target}).
     */
    static Path launcherRoot(Path root) throws IOException {
        Files.copy(Path.of("../../kvledger"), root.resolve("kvledger"));
        Path target = Files.createDirectories(root.resolve("infrastructure/cli/target"));
        Path jar = Files.copy(jar(), target.resolve("kvledger.jar"));
        Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(60)));
        return target;
    }

    static Path jar() {
        return CliRun.jar();
    }

    static List<String> javaCommand(List<String> jvmOptions, String... args) {
        return CliRun.javaCommand(jvmOptions, args);
    }

    /** The jar as a child process ({@link CliRun#ofJarTo}); stdout goes to {@code stdout} (a file, /dev/full, ...). */
    static Result child(Path dir, File stdout, List<String> jvmOptions, String... args) throws IOException, InterruptedException {
        CliRun run = CliRun.ofJarTo(stdout, dir, jvmOptions, args);
        String out = stdout.isFile() && stdout.length() < (64 << 20) ? Files.readString(stdout.toPath(), StandardCharsets.UTF_8) : "";
        return new Result(run.exit(), out, run.stderr());
    }

    static Result child(Path dir, String... args) throws IOException, InterruptedException {
        return child(dir, Files.createTempFile(dir, "stdout", ".txt").toFile(), List.of("-Xmx256m"), args);
    }

    /** Through a shell pipeline (e.g. {@code | head -1}); returns kvledger's own exit status, from PIPESTATUS. */
    static Result pipeline(Path dir, String pipeTail, String... args) throws IOException, InterruptedException {
        StringBuilder command = new StringBuilder();
        for (String part : javaCommand(List.of("-Xmx256m"), args)) {
            command.append('\'').append(part.replace("'", "'\\''")).append("' ");
        }
        command.append("2>\"$ERR\" | ").append(pipeTail).append(" >/dev/null; echo ${PIPESTATUS[0]}");
        Path stderr = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command.toString());
        builder.environment().put("ERR", stderr.toString());
        Process process = builder.redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the pipeline did not finish");
        return new Result(Integer.parseInt(out.substring(out.lastIndexOf('\n') + 1).strip()), "", Files.readString(stderr));
    }
}
