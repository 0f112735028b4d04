package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher stops short runs at C1 (a simulation of up to 100,000 requests, a log tool's log under 400 MB,
 * a compressed one counted at 8 times its size) and leaves long ones and other commands to C2;
 * {@code KVLEDGER_JIT} overrides ({@code mixed}: C2 for the parse and the digest only, by directives the jar
 * installs without printing). The batch tools run on the serial collector unless the user names one. The real launcher runs in a copy of the project root that holds the real jar,
 * and the JVM itself says which level it was given ({@code -XX:+PrintFlagsFinal}).
 */
class LauncherTuningTest {

    private static final Pattern TIER_STOP = Pattern.compile("TieredStopAtLevel\\s+=\\s+(\\d)");
    private static final Pattern SERIAL_GC = Pattern.compile("UseSerialGC\\s+=\\s+(true|false)");

    @TempDir
    Path temporary;

    /** The project root's copy, with a space in its path (the directives file's path is quoted on its way). */
    Path root;

    @BeforeEach
    void copyTheLauncherAndJar() throws Exception {
        root = Files.createDirectories(temporary.resolve("a project"));
        Kvledger.launcherRoot(root);
    }

    @Test
    void shortSimulationsAndSmallLogsStopAtC1() throws Exception {
        Path log = Files.copy(Path.of("src/test/resources/foreign-logs/clean_foreign_delay_free.jsonl"), root.resolve("log.jsonl"));
        assertEquals(1, tierStop(Map.of(), "simulate", "--requests", "20"));
        assertEquals(1, tierStop(Map.of(), "simulate", "--requests=100000", "--seed", "x"));
        assertEquals(1, tierStop(Map.of(), "audit", log.toString()));
        assertEquals(1, tierStop(Map.of(), "replay", "--at", "3", log.toString()));
        assertEquals(1, tierStop(Map.of("KVLEDGER_JIT", "c1"), "run", root.resolve("missing.jsonl").toString()));
    }

    @Test
    void longRunsAndOtherCommandsKeepC2() throws Exception {
        Path small = Files.copy(Path.of("src/test/resources/foreign-logs/clean_foreign_delay_free.jsonl"), root.resolve("log.jsonl"));
        assertEquals(4, tierStop(Map.of(), "simulate", "--requests", "100001", "--seed", "x"));
        assertEquals(4, tierStop(Map.of(), "audit", sparse("big.jsonl", 400_000_000L).toString()));
        assertEquals(4, tierStop(Map.of(), "replay", sparse("big.jsonl.gz", 50_000_000L).toString()));
        assertEquals(4, tierStop(Map.of(), "run", root.resolve("missing.jsonl").toString()));
        assertEquals(4, tierStop(Map.of("KVLEDGER_JIT", "c2"), "audit", small.toString()));
    }

    @Test
    void batchToolsRunOnTheSerialCollectorUnlessTheUserNamesOne() throws Exception {
        Path log = Files.copy(Path.of("src/test/resources/foreign-logs/clean_foreign_delay_free.jsonl"), root.resolve("log.jsonl"));
        assertEquals("true", flags(Map.of(), SERIAL_GC, "audit", log.toString()));
        assertEquals("true", flags(Map.of(), SERIAL_GC, "simulate", "--requests", "20"));
        assertEquals("false", flags(Map.of(), SERIAL_GC, "run", root.resolve("missing.jsonl").toString()));
        assertEquals("false", flags(Map.of("KVLEDGER_JAVA_OPTS", "-Xmx256m -XX:+PrintFlagsFinal -XX:+UseParallelGC"), SERIAL_GC,
                "audit", log.toString()));
    }

    @Test
    void theMixedJitKeepsC2AndInstallsItsDirectivesWithoutAWord() throws Exception {
        Path log = root.resolve("sim.jsonl");
        Process simulate = new ProcessBuilder("bash", root.resolve("kvledger").toString(), "simulate", "--requests", "300",
                "--seed", "3", "-o", log.toString()).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(root.resolve("sim.out").toFile()).start();
        assertTrue(simulate.waitFor(120, TimeUnit.SECONDS));
        assertEquals(4, tierStop(Map.of("KVLEDGER_JIT", "mixed"), "audit", log.toString()));
        // The JVM prints a line for each method whose C2 compile a directive refused: the directives are in.
        String compiled = run(Map.of("KVLEDGER_JIT", "mixed", "KVLEDGER_CDS", "on", "KVLEDGER_JAVA_OPTS", "-XX:+PrintCompilation"), "audit",
                log.toString());
        assertTrue(compiled.contains("### Excluding compile"), "a method was refused C2");
        assertTrue(!compiled.contains("compiler directives added"), "the JVM's answer is not printed");
        run(Map.of("KVLEDGER_JIT", "mixed", "KVLEDGER_CDS", "on"), "audit", log.toString());   // dumps from the list
        assertTrue(Files.exists(root.resolve("infrastructure/cli/target/cds/audit.mixed.jsa")), "an archive of its own");
    }

    /** A file of {@code size} bytes that takes no disk; the command refuses it at once. */
    private Path sparse(String name, long size) throws Exception {
        Path path = root.resolve(name);
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(size);
        }
        return path;
    }

    /** The level the launcher's JVM was stopped at (4 when C2 runs too). */
    private int tierStop(Map<String, String> env, String... args) throws Exception {
        return Integer.parseInt(flags(env, TIER_STOP, args));
    }

    /** The value of one flag as the launched JVM reports it. */
    private String flags(Map<String, String> env, Pattern flag, String... args) throws Exception {
        Matcher value = flag.matcher(run(env, args));
        assertTrue(value.find(), "the JVM printed its flags for " + String.join(" ", args));
        return value.group(1);
    }

    /** What the launched JVM printed on stdout (with {@code -XX:+PrintFlagsFinal} unless {@code env} says otherwise). */
    private String run(Map<String, String> env, String... args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder();
        builder.command().add("bash");
        builder.command().add(root.resolve("kvledger").toString());
        builder.command().addAll(java.util.List.of(args));
        builder.environment().put("KVLEDGER_CDS", "off");
        builder.environment().put("KVLEDGER_JAVA_OPTS", "-Xmx256m -XX:+PrintFlagsFinal");
        builder.environment().remove("KVLEDGER_JIT");
        builder.environment().putAll(env);
        Path out = root.resolve("out");
        Process process = builder.directory(root.toFile()).redirectError(root.resolve("err").toFile())
                .redirectOutput(out.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", args));
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
