package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's optional start-up on a JDK 25 or later ({@code KVLEDGER_JDK}): a command's first run after a build
 * records an ahead-of-time configuration, the second assembles the cache from it and runs on it, the later ones run
 * on it; none of this changes what a command prints or how it exits, and a JDK the launcher is pointed at wrongly is
 * named. The real launcher runs in a copy of the project root that holds the real jar, as in
 * {@link LauncherClassSharingTest}. The JDK 25 is the one this machine has (JAVA_HOME, or under /usr/lib/jvm), as
 * {@code KVLEDGER_JDK=auto} finds it; on a machine without one, {@code auto} must fall back to the java on PATH and
 * its archive, which is what those tests then hold.
 */
class LauncherAotCacheTest {

    private static final Pattern FEATURE = Pattern.compile("^JAVA_VERSION=\"(\\d+)[^\"]*\"", Pattern.MULTILINE);
    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"([^\"]*)\"", Pattern.MULTILINE);

    @TempDir
    Path root;

    private Path cds;
    private Path scenario;

    @BeforeEach
    void copyTheLauncherAndJar() throws Exception {
        cds = Kvledger.launcherRoot(root).resolve("cds");
        scenario = Files.copy(Path.of("src/test/resources/examples/05_abort_mid_prefill.jsonl"), root.resolve("s.jsonl"));
    }

    @Test
    void aJdk25RecordsThenAssemblesThenRunsOnItsCacheAndEveryRunPrintsTheSame() throws Exception {
        Optional<Path> jdk = jdk25();
        String[] plain = launch(Map.of("KVLEDGER_CDS", "off"), "run", scenario.toString());
        assertEquals("0", plain[0], plain[1]);
        if (jdk.isEmpty()) {
            for (int run = 0; run < 2; run++) {
                String[] auto = launch(Map.of("KVLEDGER_JDK", "auto"), "run", scenario.toString());
                assertEquals(List.of(plain[0], plain[1], plain[2]), List.of(auto[0], auto[1], auto[2]));
            }
            assertTrue(Files.size(cds.resolve("run.jsa")) > 0, "no JDK 25 here: auto is the java on PATH, with its archive");
            return;
        }
        Map<String, String> env = Map.of("KVLEDGER_JDK", "auto");
        String name = "run.jdk" + version(jdk.get());
        Path conf = cds.resolve(name + ".aotconf");
        Path cache = cds.resolve(name + ".aot");

        String[] recording = launch(env, "run", scenario.toString());
        assertEquals(List.of(plain[0], plain[1], plain[2]), List.of(recording[0], recording[1], recording[2]),
                "the recording run prints what Java 17 without an archive prints, on stdout and on stderr");
        assertTrue(Files.size(conf) > 0, "the first run recorded its configuration: " + listing());
        assertFalse(Files.exists(cache));

        String[] assembling = launch(env, "run", scenario.toString());
        assertEquals(List.of(plain[0], plain[1], plain[2]), List.of(assembling[0], assembling[1], assembling[2]));
        assertTrue(Files.size(cache) > 0, "the second run assembled the cache: " + listing());
        assertFalse(Files.exists(conf), "the configuration is dropped once assembled");
        assertEquals(List.of(), partials());

        // AOTMode=on: a JVM that cannot map the cache refuses to start, so this run is on the cache.
        String[] onTheCache = launch(Map.of("KVLEDGER_JDK", jdk.get().toString(), "KVLEDGER_JAVA_OPTS", "-Xmx256m -XX:AOTMode=on"),
                "run", scenario.toString());
        assertEquals(List.of(plain[0], plain[1], plain[2]), List.of(onTheCache[0], onTheCache[1], onTheCache[2]));

        String[] missing = launch(Map.of("KVLEDGER_CDS", "off"), "audit", root.resolve("missing.jsonl").toString());
        for (int run = 0; run < 3; run++) {
            String[] bad = launch(env, "audit", root.resolve("missing.jsonl").toString());
            assertEquals("2", bad[0], bad[1]);
            assertEquals(missing[1] + missing[2], bad[1] + bad[2], "a refusal reads the same on each run: " + run);
        }
        assertTrue(Files.size(cds.resolve("audit.jdk" + version(jdk.get()) + ".aot")) > 0, listing());
    }

    @Test
    void aTornConfigurationIsDroppedAndTheNextRunRecordsAgain() throws Exception {
        Optional<Path> jdk = jdk25();
        Map<String, String> env = Map.of("KVLEDGER_JDK", "auto");
        String[] plain = launch(Map.of("KVLEDGER_CDS", "off"), "run", scenario.toString());
        if (jdk.isEmpty()) {
            Files.createDirectories(cds);
            Files.write(cds.resolve("run.jsa"), new byte[4096]);   // a dump killed before its header
            for (int run = 0; run < 2; run++) {
                String[] auto = launch(env, "run", scenario.toString());
                assertEquals(List.of(plain[0], plain[2]), List.of(auto[0], auto[2]));
            }
            assertEquals(0xa2, Files.readAllBytes(cds.resolve("run.jsa"))[0] & 0xff, "dumped again over the torn archive");
            return;
        }
        Path conf = cds.resolve("run.jdk" + version(jdk.get()) + ".aotconf");
        Files.createDirectories(cds);
        Files.write(conf, new byte[64 * 1024]);   // what a recording killed while writing could leave
        // A killed launcher's half-assembled cache, and one a launcher beside this one is assembling now.
        Path stale = Files.write(cds.resolve("run.jdk" + version(jdk.get()) + ".aot.4242.partial"), new byte[1024]);
        Files.setLastModifiedTime(stale, java.nio.file.attribute.FileTime.from(java.time.Instant.now().minusSeconds(600)));
        Path beside = Files.write(cds.resolve("audit.jdk" + version(jdk.get()) + ".aot.4343.partial"), new byte[1024]);

        String[] run = launch(env, "run", scenario.toString());
        assertEquals(List.of(plain[0], plain[1], plain[2]), List.of(run[0], run[1], run[2]));
        assertFalse(Files.exists(cds.resolve("run.jdk" + version(jdk.get()) + ".aot")), "no cache from a torn configuration");
        assertEquals(List.of(beside), partials(), "the stale partial is deleted, the one being assembled beside is not");
        Files.delete(beside);
        assertTrue(Files.size(conf) != 64 * 1024, "the torn configuration was dropped and recorded again");

        launch(env, "run", scenario.toString());
        assertTrue(Files.size(cds.resolve("run.jdk" + version(jdk.get()) + ".aot")) > 0, listing());
    }

    @Test
    void optionsTheJvmRefusesAreNamedOnTheRecordingRunToo() throws Exception {
        // The recording JVM's own output is silenced (it prints a line of its own on stdout at its exit), so the
        // launcher tries the options first: a JVM they do not start must still say why.
        String[] refused = launch(Map.of("KVLEDGER_JDK", "auto", "KVLEDGER_JAVA_OPTS", "-Xmx1m"), "run", scenario.toString());
        assertFalse("0".equals(refused[0]), refused[1]);
        String said = refused[1] + refused[2];   // HotSpot prints a failed start on stdout
        assertTrue(said.contains("Too small maximum heap") || said.contains("initial heap"),
                "the JVM says why: exit " + refused[0] + ", stderr " + refused[1] + ", stdout " + refused[2]);
        assertEquals(List.of(), partials());
    }

    @Test
    void aNamedHomeThatHoldsNoJavaIsRefusedAndAJdk17HomeKeepsItsArchive() throws Exception {
        String[] nowhere = launch(Map.of("KVLEDGER_JDK", root.resolve("no-jdk").toString()), "run", scenario.toString());
        assertEquals("2", nowhere[0]);
        assertEquals("", nowhere[2]);
        assertTrue(nowhere[1].contains("KVLEDGER_JDK=" + root.resolve("no-jdk")) && nowhere[1].contains("system"), nowhere[1]);

        Path home = Path.of(System.getProperty("java.home"));
        assertTrue(feature(home).orElse(0) < 25, "the suite runs on Java 17: " + home);
        String[] plain = launch(Map.of("KVLEDGER_CDS", "off"), "run", scenario.toString());
        for (int run = 0; run < 2; run++) {   // the first lists the classes, the second dumps the archive
            String[] named = launch(Map.of("KVLEDGER_JDK", home.toString()), "run", scenario.toString());
            assertEquals(List.of(plain[0], plain[1], plain[2]), List.of(named[0], named[1], named[2]));
        }
        assertTrue(Files.size(cds.resolve("run.jsa")) > 0, "a JDK before 25 keeps the archive: " + listing());
        try (Stream<Path> files = Files.list(cds)) {
            assertEquals(List.of(), files.filter(path -> path.toString().contains(".aot")).toList());
        }
    }

    @Test
    void sigtermStopsAServeOnItsRecordingRunAndTheNextStartAssembles() throws Exception {
        Optional<Path> jdk = jdk25();
        Map<String, String> env = jdk.isPresent() ? Map.of("KVLEDGER_JDK", "auto") : Map.of();
        Process launcher = start(env, "serve", "--stdio");
        BufferedReader err = new BufferedReader(new InputStreamReader(launcher.getErrorStream(), StandardCharsets.UTF_8));
        String line = err.readLine();
        assertTrue(line != null && line.contains("serving"), "serve started: " + line);
        List<ProcessHandle> started = launcher.descendants().toList();
        launcher.destroy();   // SIGTERM
        assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "the launcher ended on SIGTERM");
        assertEquals(List.of(), started, "the launcher is the JVM itself (exec), with no child processes");

        Process again = start(env, "serve", "--stdio");
        BufferedReader errAgain = new BufferedReader(new InputStreamReader(again.getErrorStream(), StandardCharsets.UTF_8));
        String lineAgain = errAgain.readLine();
        assertTrue(lineAgain != null && lineAgain.contains("serving"), "serve started again: " + lineAgain);
        again.destroy();
        assertTrue(again.waitFor(60, TimeUnit.SECONDS));
        if (jdk.isPresent()) {
            assertTrue(Files.size(cds.resolve("serve.jdk" + version(jdk.get()) + ".aot")) > 0,
                    "the JVM stopped by SIGTERM still recorded a whole configuration: " + listing());
        } else {
            assertTrue(Files.size(cds.resolve("serve.jsa")) > 0, listing());
        }
    }

    /**
     * {@code fleet node} starts once and runs for hours, and on a JDK 25 with its cache it caught up 1.25x faster, so
     * its default is {@code auto}: a JDK 25 when there is one, with a cache of its own ({@code fleet-node}); the fleet's
     * queries stay on Java 17 and its archive; {@code KVLEDGER_JDK=system} keeps the node on Java 17. The JVM says
     * which it is ({@code -XshowSettings:properties}).
     */
    @Test
    void aFleetNodeRunsOnAJdk25ByDefaultAndTheFleetsQueriesDoNot() throws Exception {
        Optional<Path> jdk = jdk25();
        for (int run = 0; run < 2; run++) {
            String[] node = launch(Map.of(), "fleet", "node", "--help");
            assertEquals("0", node[0], node[1]);
            assertTrue(node[2].startsWith("Usage: kvledger fleet node"), node[2]);
            assertEquals("0", launch(Map.of(), "fleet", "status", "--help")[0]);
        }
        assertTrue(Files.size(cds.resolve("fleet.jsa")) > 0, "the queries are on Java 17's archive: " + listing());
        Map<String, String> showing = Map.of("KVLEDGER_JAVA_OPTS", "-Xmx256m -XshowSettings:properties");
        assertEquals("17", specification(launch(showing, "fleet", "status", "--help")[1]));
        assertEquals("17", specification(launch(Map.of("KVLEDGER_JDK", "system", "KVLEDGER_JAVA_OPTS",
                "-Xmx256m -XshowSettings:properties"), "fleet", "node", "--help")[1]), "system keeps the node on Java 17");
        if (jdk.isEmpty()) {
            assertTrue(Files.size(cds.resolve("fleet-node.jsa")) > 0, "no JDK 25 here: the node on Java 17, an archive of its own: "
                    + listing());
            return;
        }
        assertTrue(Files.size(cds.resolve("fleet-node.jdk" + version(jdk.get()) + ".aot")) > 0, "its own cache: " + listing());
        assertEquals(Integer.toString(feature(jdk.get()).orElseThrow()),
                specification(launch(showing, "fleet", "node", "--help")[1]), "the node runs on the JDK 25");
    }

    /**
     * A log tool's or a simulation's long run (the ones the launcher leaves to C2) has the JDK 25 by default too, with a
     * cache of its own ({@code audit-long}, ...): a 10 M-event audit took 0.86x the time on it, a simulation of 120,000
     * requests 0.70x. Short runs stay on Java 17, and {@code KVLEDGER_JDK=system} keeps a long one there.
     */
    @Test
    void longRunsRunOnAJdk25ByDefaultAndShortOnesOnJava17() throws Exception {
        Optional<Path> jdk = jdk25();
        String expected = jdk.isPresent() ? Integer.toString(feature(jdk.get()).orElseThrow()) : "17";
        Path small = Files.copy(Path.of("src/test/resources/foreign-logs/clean_foreign_delay_free.jsonl"), root.resolve("log.jsonl"));
        Path big = root.resolve("big.jsonl");
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(400_000_000L);   // takes no disk; the audit refuses its first line at once
        }
        Map<String, String> showing = Map.of("KVLEDGER_JAVA_OPTS", "-Xmx256m -XshowSettings:properties");
        assertEquals("17", specification(launch(showing, "audit", small.toString())[1]), "a short audit");
        assertEquals("17", specification(launch(showing, "simulate", "--requests", "100000", "--seed", "x")[1]));
        assertEquals(expected, specification(launch(showing, "audit", big.toString())[1]), "a long audit");
        assertEquals(expected, specification(launch(showing, "simulate", "--requests", "100001", "--seed", "x")[1]));
        assertEquals("17", specification(launch(Map.of("KVLEDGER_JDK", "system", "KVLEDGER_JAVA_OPTS",
                "-Xmx256m -XshowSettings:properties"), "audit", big.toString())[1]), "system keeps it on Java 17");
        if (jdk.isPresent()) {
            assertTrue(Files.exists(cds.resolve("audit-long.jdk" + version(jdk.get()) + ".aotconf"))
                    || Files.exists(cds.resolve("audit-long.jdk" + version(jdk.get()) + ".aot")), "its own cache: " + listing());
        }
    }

    /** The {@code java.specification.version} a JVM printed with {@code -XshowSettings:properties}. */
    private static String specification(String settings) {
        Matcher value = Pattern.compile("java\\.specification\\.version = (\\S+)").matcher(settings);
        assertTrue(value.find(), "the JVM printed its properties: " + settings);
        return value.group(1);
    }

    /** A JDK 25 or later as the launcher's {@code auto} finds one: JAVA_HOME, else the newest under /usr/lib/jvm. */
    private static Optional<Path> jdk25() throws IOException {
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isEmpty() && feature(Path.of(javaHome)).orElse(0) >= 25
                && Files.isExecutable(Path.of(javaHome, "bin/java"))) {
            return Optional.of(Path.of(javaHome));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin/java")))
                    .filter(home -> feature(home).orElse(0) >= 25)
                    .max(Comparator.comparingInt((Path home) -> feature(home).orElse(0)).thenComparing(Comparator.reverseOrder()));
        }
    }

    private static Optional<Integer> feature(Path home) {
        return release(home, FEATURE).map(Integer::parseInt);
    }

    private static String version(Path home) {
        return release(home, VERSION).orElseThrow();
    }

    private static Optional<String> release(Path home, Pattern pattern) {
        try {
            Matcher matcher = pattern.matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
            return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private List<Path> partials() throws IOException {
        if (!Files.isDirectory(cds)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(cds)) {
            return files.filter(path -> path.toString().endsWith(".partial")).toList();
        }
    }

    private String listing() throws IOException {
        if (!Files.isDirectory(cds)) {
            return "no " + cds;
        }
        try (Stream<Path> files = Files.list(cds)) {
            return files.map(p -> p.getFileName() + " " + p.toFile().length()).sorted().toList().toString();
        }
    }

    /** Exit code, stderr and stdout of the launcher with {@code env} set (KVLEDGER_JAVA_OPTS -Xmx256m unless given). */
    private String[] launch(Map<String, String> env, String... args) throws Exception {
        Path err = root.resolve("err");
        Path out = root.resolve("out");
        Process process = builder(env, args).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        assertTrue(process.waitFor(180, TimeUnit.SECONDS));
        return new String[] {Integer.toString(process.exitValue()), Files.readString(err, StandardCharsets.UTF_8),
                Files.readString(out, StandardCharsets.UTF_8)};
    }

    private Process start(Map<String, String> env, String... args) throws Exception {
        return builder(env, args).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private ProcessBuilder builder(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("kvledger").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
        Map<String, String> environment = builder.environment();
        environment.remove("KVLEDGER_CDS");
        environment.remove("KVLEDGER_JDK");
        environment.remove("KVLEDGER_JIT");
        environment.put("KVLEDGER_JAVA_OPTS", "-Xmx256m");
        environment.putAll(new HashMap<>(env));
        return builder;
    }
}
