package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mixed JIT changes how fast a tool runs and nothing it prints: every log tool, run by the real launcher on a
 * damaged simulated log and on a foreign log with findings, writes the same stdout, stderr, exit code and trace
 * file with {@code KVLEDGER_JIT=mixed} as with C1 alone; and the jar put on a class path (where the package the
 * directives go through is not opened) says nothing about them either.
 */
class MixedJitOutputTest {

    @TempDir
    Path root;

    private Path damaged;
    private Path foreign;

    @BeforeEach
    void logs() throws Exception {
        Kvledger.launcherRoot(root);
        Path log = root.resolve("sim.jsonl");
        assertEquals(0, launch(Map.of(), "simulate", "--requests", "400", "--seed", "5", "-o", log.toString()).exit());
        List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
        int middle = lines.size() / 2;
        lines.set(middle, lines.get(middle).substring(0, lines.get(middle).length() / 2));
        lines.remove(middle / 2); // a line dropped early: the fold departs from the rules there
        damaged = Files.write(root.resolve("damaged.jsonl"), lines, StandardCharsets.UTF_8);
        foreign = Files.copy(Path.of("src/test/resources/foreign-logs/completion_of_unknown_job.jsonl"),
                root.resolve("foreign.jsonl"));
    }

    @Test
    void everyLogToolPrintsTheSameUnderTheMixedJit() throws Exception {
        for (Path log : List.of(damaged, foreign)) {
            for (List<String> args : List.of(List.of("audit", log.toString()), List.of("audit", "--json", log.toString()),
                    List.of("replay", log.toString()), List.of("replay", "--json", log.toString()),
                    List.of("explain", "--job", "1", log.toString()))) {
                Kvledger.Result c1 = launch(Map.of("KVLEDGER_JIT", "c1"), args.toArray(String[]::new));
                Kvledger.Result mixed = launch(Map.of("KVLEDGER_JIT", "mixed"), args.toArray(String[]::new));
                assertEquals(c1, mixed, String.join(" ", args));
                assertEquals(c1.stdout(), mixed.stdout(), String.join(" ", args));
            }
            Path trace = root.resolve("trace.json"); // one path for both: stderr names it
            Kvledger.Result c1 = launch(Map.of("KVLEDGER_JIT", "c1"), "trace", log.toString(), "-o", trace.toString());
            byte[] c1Trace = Files.readAllBytes(trace);
            Files.delete(trace);
            assertEquals(c1, launch(Map.of("KVLEDGER_JIT", "mixed"), "trace", log.toString(), "-o", trace.toString()));
            assertEquals(-1, java.util.Arrays.mismatch(c1Trace, Files.readAllBytes(trace)), "trace of " + log);
        }
        assertTrue(launch(Map.of("KVLEDGER_JIT", "c1"), "audit", damaged.toString()).exit() != 0, "the damage is seen");
    }

    @Test
    void onAClassPathTheDirectivesStaySilent() throws Exception {
        Path directives = Files.writeString(root.resolve("d.json"), "[{ match: \"*.*\", c2: { Exclude: true } }]");
        for (Path log : List.of(damaged, foreign)) {
            Kvledger.Result plain = classPath(List.of(), log);
            Kvledger.Result asked = classPath(List.of("-Dkvledger.compilerDirectives=" + directives), log);
            assertEquals(plain, asked);
            assertEquals(plain.stdout(), asked.stdout());
        }
    }

    /** The real launcher with {@code env}; C1 and the serial collector as it chooses them, archives on. */
    private Kvledger.Result launch(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("kvledger").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
        builder.environment().remove("KVLEDGER_JAVA_OPTS");
        builder.environment().remove("KVLEDGER_CDS");
        builder.environment().putAll(env);
        return finished(builder);
    }

    /** {@code audit} by the jar on a class path, not through {@code -jar} and its manifest. */
    private Kvledger.Result classPath(List<String> options, Path log) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m"));
        command.addAll(options);
        command.addAll(List.of("-cp", Kvledger.jar().toString(), "io.kvledger.infrastructure.cli.KvLedgerCli", "audit",
                log.toString()));
        return finished(new ProcessBuilder(command).directory(root.toFile()));
    }

    private Kvledger.Result finished(ProcessBuilder builder) throws Exception {
        Path out = Files.createTempFile(root, "out", ".txt");
        Path err = Files.createTempFile(root, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS), String.join(" ", builder.command()));
        return new Kvledger.Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
