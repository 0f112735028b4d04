package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import io.kvledger.domain.ProgramCommands.Op;
import io.kvledger.domain.ProgramCommands.Step;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A characterization test: seeded command programs (the generator of {@link DeciderPropertiesTest}, with
 * its invariants checked on every command) and a digest of each program's whole event log, recorded in
 * {@code recorded-logs.txt}. Any change of any event of any program fails it, naming the seed, so it
 * pins the rules' current behaviour far beyond the hand-written examples (which say why it is right).
 * After an intended change of behaviour, re-record with {@code -Dkvledger.recordLogs=true} and review
 * the diff of the file together with the change.
 */
class RecordedLogsTest {

    private static final int PROGRAMS = 300;
    private static final String RESOURCE = "recorded-logs.txt";

    @Test
    void everyRecordedProgramProducesTheSameLog() throws IOException {
        Map<Long, String> recorded = read();
        Map<Long, String> now = new LinkedHashMap<>();
        for (long seed = 1; seed <= PROGRAMS; seed++) {
            String digest = digest(run(seed));
            now.put(seed, digest);
            if (!Boolean.getBoolean("kvledger.recordLogs")) {
                assertEquals(recorded.get(seed), digest, "the log of program " + seed + " changed:\n" + describe(seed));
            }
        }
        if (Boolean.getBoolean("kvledger.recordLogs")) {
            write(now);
        } else {
            assertEquals(PROGRAMS, recorded.size(), "programs recorded");
        }
    }

    /** The config and the steps of program {@code seed}: the property's distributions, drawn from a seeded Random. */
    static List<EngineEvent> run(long seed) {
        return run(seed, java.util.function.UnaryOperator.identity());
    }

    /** Program {@code seed} on the config it draws, changed by {@code configs} (the same commands are drawn). */
    static List<EngineEvent> run(long seed, java.util.function.UnaryOperator<EngineConfig> configs) {
        Random random = new Random(seed);
        EngineConfig config = configs.apply(new EngineConfig(1 + random.nextInt(4), 1 + random.nextInt(3), 1 + random.nextInt(2),
                random.nextInt(7), random.nextBoolean() ? ReleasePolicy.FENCE : ReleasePolicy.DELAY_FREE,
                random.nextInt(4) == 0 ? random.nextInt(25) : null, random.nextInt(5) == 0));
        ProgramDriver driver = new ProgramDriver(config);
        int length = 1 + random.nextInt(80);
        for (int i = 0; i < length; i++) {
            driver.run(new Step(op(random), random.nextInt(4), random.nextInt(32), random.nextInt(32)));
        }
        driver.finish();
        return driver.log();
    }

    private static Op op(Random random) {
        int[] weights = {6, 6, 8, 4, 12, 2, 4, 2, 4, 2, 10, 1, 1};
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int pick = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            pick -= weights[i];
            if (pick < 0) {
                return Op.values()[i];
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private static String describe(long seed) {
        StringBuilder text = new StringBuilder();
        for (EngineEvent event : run(seed)) {
            text.append("  ").append(event).append('\n');
        }
        return text.toString();
    }

    static String digest(List<EngineEvent> log) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (EngineEvent event : log) {
                sha.update(event.toString().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<Long, String> read() throws IOException {
        Map<Long, String> recorded = new LinkedHashMap<>();
        try (InputStream in = RecordedLogsTest.class.getResourceAsStream("/" + RESOURCE)) {
            if (in == null) {
                return recorded;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] parts = line.trim().split(" ");
                    recorded.put(Long.parseLong(parts[0]), parts[1]);
                }
            }
        }
        return recorded;
    }

    private static void write(Map<Long, String> digests) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# seed and digest of the event log of each program of RecordedLogsTest (re-record: -Dkvledger.recordLogs=true)");
        digests.forEach((seed, digest) -> lines.add(seed + " " + digest));
        Path file = Path.of("src", "test", "resources", RESOURCE);
        assertTrue(Files.isDirectory(file.getParent()), "run from the domain module to record");
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}
