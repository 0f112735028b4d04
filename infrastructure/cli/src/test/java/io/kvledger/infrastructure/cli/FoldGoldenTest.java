package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fold and the decider give exactly what they gave before they were made cheaper (issue 18): for 240
 * seeded simulations under varied options (worker ranks, release policies, preemption, failure, abort
 * and reset rates, request sizes, small GPU pools), the simulated log's bytes, the outputs of {@code
 * audit}, {@code audit --explain} of the middle event (text) or of
 * an event a quarter in (JSON), {@code replay} (text, JSON, at the log's middle) and the audits of
 * two damaged copies of the log (a line dropped, so findings are made and the fold goes on from repaired
 * states) hash to the digests frozen in {@code fold-golden.txt}, which were written by the fold of
 * {@code main} before issue 18 ({@code -Dkvledger.golden.write=PATH} writes them again).
 */
class FoldGoldenTest {

    private static final int CASES = 240;
    private static final String GOLDEN = "fold-golden.txt";

    @TempDir
    Path dir;

    @Test
    void everySeededCaseGivesTheFrozenLogAuditAndReplayOutputs() throws Exception {
        Map<String, String> expected = golden();
        Map<String, String> actual = new LinkedHashMap<>();
        List<String> differing = new ArrayList<>();
        int findings = 0;
        for (int seed = 1; seed <= CASES; seed++) {
            String[] options = options(seed);
            String name = String.join(" ", options);
            Outputs outputs = outputs(seed, options);
            actual.put(name, outputs.digest);
            findings += outputs.findings;
            if (!outputs.digest.equals(expected.get(name))) {
                differing.add(name);
            }
        }
        String write = System.getProperty("kvledger.golden.write");
        if (write != null) {
            StringBuilder text = new StringBuilder();
            actual.forEach((name, digest) -> text.append(digest).append(' ').append(name).append('\n'));
            Files.writeString(Path.of(write), text);
        }
        assertEquals(CASES, expected.size(), "the golden file holds every case");
        assertTrue(findings > CASES, "the damaged copies make findings: " + findings);
        assertEquals(List.of(), differing, "cases whose outputs changed");
    }

    /** Options of case {@code seed}: each varies on its own cycle, so the 240 cases mix them. */
    private static String[] options(int seed) {
        List<String> options = new ArrayList<>(List.of("--seed", Integer.toString(seed),
                "--requests", Integer.toString(8 + seed % 6 * 9),
                "--workers", Integer.toString(1 + seed % 3),
                "--release", seed % 2 == 0 ? "FENCE" : "DELAY_FREE",
                "--request-tokens", new String[] {"48", "128", "512", "96"}[seed % 4],
                "--preempt-rate", new String[] {"0.02", "0.3", "0", "0.1", "1"}[seed % 5],
                "--fail-rate", new String[] {"0.02", "0.2", "0"}[seed % 3 == 1 ? 1 : seed % 6 == 0 ? 2 : 0],
                "--abort-rate", new String[] {"0.1", "0.5", "0"}[seed % 11 % 3],
                "--reset-rate", new String[] {"0.0005", "0.02", "0", "0.1"}[seed % 13 % 4]));
        if (seed % 5 == 3) {
            options.addAll(List.of("--gpu-blocks", Integer.toString(30 + seed % 3 * 20)));
        }
        return options.toArray(String[]::new);
    }

    private record Outputs(String digest, int findings) {
    }

    private Outputs outputs(int seed, String[] options) throws Exception {
        Path log = dir.resolve("s" + seed + ".jsonl");
        List<String> simulate = new ArrayList<>(List.of("simulate", "-o", log.toString()));
        simulate.addAll(List.of(options));
        Run simulated = run(simulate.toArray(String[]::new));
        assertEquals(0, simulated.exit, "simulate " + String.join(" ", options) + ": " + simulated.err);
        MessageDigest digest = sha256();
        digest.update(Files.readAllBytes(log));
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        String middle = Integer.toString(lines.size() / 2);
        String quarter = Integer.toString(1 + lines.size() / 4);
        for (String[] args : List.of(new String[] {"audit", log.toString()},
                seed % 4 == 0 ? new String[] {"audit", "--explain", middle, log.toString()}
                        : new String[] {"audit", "--explain", quarter, "--json", log.toString()},
                new String[] {"replay", log.toString()},
                new String[] {"replay", "--json", log.toString()},
                new String[] {"replay", "--at", middle, log.toString()})) {
            run(args).into(digest);
        }
        int findings = 0;
        for (int damage = 1; damage <= 2; damage++) {
            List<String> copy = new ArrayList<>(lines);
            copy.remove(1 + (seed * 7919 * damage) % (copy.size() - 1));
            Path damaged = dir.resolve("d" + seed + "-" + damage + ".jsonl");
            Files.write(damaged, copy, StandardCharsets.UTF_8);
            Run audit = run("audit", damaged.toString());
            audit.into(digest);
            findings += audit.exit == 1 ? 1 : 0;
            run("replay", "--json", damaged.toString()).into(digest);
        }
        Files.delete(log);
        return new Outputs(HexFormat.of().formatHex(digest.digest()), findings);
    }

    private record Run(int exit, String out, String err) {
        void into(MessageDigest digest) {
            digest.update(("exit " + exit + "\n" + out + "\n--\n" + err + "\n==\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Map<String, String> golden() throws IOException {
        Map<String, String> digests = new LinkedHashMap<>();
        try (InputStream in = FoldGoldenTest.class.getResourceAsStream(GOLDEN)) {
            if (in == null) {
                return digests;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int space = line.indexOf(' ');
                if (space > 0) {
                    digests.put(line.substring(space + 1), line.substring(0, space));
                }
            }
        }
        return digests;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
