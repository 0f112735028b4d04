package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.check.FindingCodes;
import io.kvledger.application.finding.RuleClass;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kvledger audit --rules all|safety} (contract 9.2), in process and through the packaged jar: each finding's
 * class (the logs of {@code rule-classes/} hold each case of the three codes that have two), {@code safety} printing
 * exactly the safety lines of {@code all} and exiting 1 only for one, {@code all} being no option at all, the
 * option before or after the log, and every usage error exit 2.
 */
class AuditRulesCommandTest {

    @TempDir
    Path dir;

    /** How the command line is run: in this JVM, or as {@code java -jar kvledger.jar}. */
    enum Runner {
        IN_PROCESS, JAR;

        CliRun run(Path dir, String... args) throws IOException, InterruptedException {
            if (this == IN_PROCESS) {
                return CliRun.of(args);
            }
            return CliRun.ofJar(dir, args);
        }
    }

    static Stream<Path> logs() throws IOException, URISyntaxException {
        Path folder = Path.of(AuditRulesCommandTest.class.getResource("/rule-classes").toURI());
        return Files.list(folder).filter(p -> p.toString().endsWith(".jsonl")).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void eachFindingHasTheClassOfItsCase(Path log) throws Exception {
        CliRun all = CliRun.of("audit", log.toString());

        List<String> classed = all.stdout().stream().map(line -> withoutReason(line) + " " + classOf(line).label()).toList();
        assertEquals(Files.readAllLines(log.resolveSibling(log.getFileName().toString().replace(".jsonl", ".expect"))),
                classed, String.join("\n", all.stdout()));
        for (String line : all.stdout()) {
            boolean mixed = line.contains(" STORE_BEYOND_BOUND ") || line.contains(" MATCH_MISMATCH ") || line.contains(" RELEASE_MISMATCH ");
            assertEquals(mixed, line.contains("; safety case: ") || line.contains("; policy case: "),
                    "the reason names the case for exactly the three codes with two: " + line);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Runner.class)
    void safetyPrintsTheSafetyLinesOfAllWhereverTheOptionIsAndExitsOneOnlyForOne(Runner runner) throws Exception {
        // Through the jar (a JVM a run), one log with a safety finding and one with only a policy one.
        List<Path> chosen = runner == Runner.IN_PROCESS ? logs().toList() : logs()
                .filter(p -> p.toString().contains("release_under") || p.toString().contains("release_out_of")).toList();
        assertEquals(runner == Runner.IN_PROCESS ? 9 : 2, chosen.size());
        for (Path log : chosen) {
            CliRun plain = runner.run(dir, "audit", log.toString());
            List<String> safetyLines = plain.stdout().stream().filter(line -> classOf(line) == RuleClass.SAFETY).toList();
            for (String[] args : List.of(new String[] {"audit", "--rules", "safety", log.toString()},
                    new String[] {"audit", log.toString(), "--rules", "safety"},
                    new String[] {"audit", "--rules=safety", log.toString()},
                    new String[] {"audit", log.toString(), "--rules=safety"})) {
                CliRun safety = runner.run(dir, args);
                assertEquals(safetyLines, safety.stdout(), String.join(" ", args));
                assertEquals(safetyLines.isEmpty() ? 0 : 1, safety.exit(), String.join(" ", args) + ": " + safety.stderr());
                assertEquals("", safety.stderr(), String.join(" ", args));
            }
            for (String[] args : List.of(new String[] {"audit", "--rules", "all", log.toString()},
                    new String[] {"audit", log.toString(), "--rules=all"})) {
                assertEquals(plain, runner.run(dir, args), "--rules all is the audit without --rules: " + String.join(" ", args));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Runner.class)
    void everyUsageErrorOfAuditExitsTwoAndSaysWhatIsWrong(Runner runner) throws Exception {
        String log = logs().findFirst().orElseThrow().toString();
        List<List<String>> cases = List.of(
                List.of("audit", log, "--rules"),
                List.of("audit", "--rules", "policy", log),
                List.of("audit", "--rules=SAFETY", log),
                List.of("audit", "--rules=", log),
                List.of("audit", "--rules", "all", log, "--rules", "safety"),
                List.of("audit", "--rules=safety", "--rules=safety", log),
                List.of("audit", "--rules", "safety"),
                List.of("audit", log, log, "--rules", "safety"),
                List.of("audit", log, "--rule", "safety"));
        List<String> says = List.of("Missing required parameter for option '--rules'",
                "--rules takes all or safety, not 'policy'", "--rules takes all or safety, not 'SAFETY'",
                "--rules takes all or safety, not ''", "option '--rules' (all|safety) should be specified only once",
                "option '--rules' (all|safety) should be specified only once", "Missing required parameter: 'LOG'",
                "Unmatched argument", "Unknown options: '--rule'");
        for (int i = 0; i < cases.size(); i++) {
            CliRun run = runner.run(dir, cases.get(i).toArray(String[]::new));
            String shown = String.join(" ", cases.get(i)) + ":\n" + run.stderr();
            assertEquals(2, run.exit(), shown);
            assertEquals(List.of(), run.stdout(), shown);
            assertTrue(run.stderr().contains(says.get(i)), shown);
        }
    }

    @Test
    void aMalformedLogIsExitTwoUnderBothWithTheSameMessageAndTheFindingsBeforeIt() throws Exception {
        Path log = dir.resolve("malformed.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(logs().filter(p -> p.toString().contains("release_under"))
                .findFirst().orElseThrow()));
        // The next command starts at seq 11, so the command before it is judged before the malformed line 12.
        lines.add("{\"seq\": 11, \"type\": \"TokensAppended\", \"requestId\": \"a\", \"numTokens\": 14, \"tokens\": [14]}");
        lines.add("{\"seq\": 12, \"type\": \"TokensComputed\", \"requestId\": \"a\"}");
        Files.write(log, lines);

        CliRun all = CliRun.of("audit", "--rules", "all", log.toString());
        CliRun safety = CliRun.of("audit", log.toString(), "--rules", "safety");

        assertEquals(2, all.exit(), all.stderr());
        assertEquals(2, safety.exit(), safety.stderr());
        assertEquals(all.stderr(), safety.stderr());
        assertTrue(all.stderr().contains("line 12"), all.stderr());
        assertEquals(all.stdout(), safety.stdout(), "the safety finding before the malformed line is printed by both");
        assertEquals(1, safety.stdout().size(), String.join("\n", safety.stdout()));
    }

    @Test
    void explainNamesTheClassOfEachFindingInTextAndJson() throws Exception {
        Path safetyLog = logs().filter(p -> p.toString().contains("release_under")).findFirst().orElseThrow();
        Path policyLog = logs().filter(p -> p.toString().contains("release_out_of")).findFirst().orElseThrow();

        CliRun text = CliRun.of("audit", "--explain", "10", safetyLog.toString());
        CliRun json = CliRun.of("audit", "--explain", "10", "--json", policyLog.toString());
        CliRun onlySafety = CliRun.of("audit", "--explain", "10", "--rules", "safety", policyLog.toString());

        assertEquals(1, text.exit(), text.stderr());
        assertTrue(text.stdout().contains("findings"), String.join("\n", text.stdout()));
        assertTrue(text.stdout().stream().anyMatch(line -> line.startsWith("  (safety) seq 10 RELEASE_MISMATCH request a: ")),
                String.join("\n", text.stdout()));
        assertEquals(1, json.exit(), json.stderr());
        assertTrue(String.join("\n", json.stdout()).contains("\"ruleClass\" : \"policy\""), String.join("\n", json.stdout()));
        assertEquals(0, onlySafety.exit(), "its one finding is policy: " + onlySafety.stderr());
        assertTrue(onlySafety.stdout().contains("findings     none"), String.join("\n", onlySafety.stdout()));
    }

    private static RuleClass classOf(String line) {
        String code = line.split(" ")[2];
        return FindingCodes.parse(code).ruleClass(line.substring(line.indexOf(": ") + 2));
    }

    private static String withoutReason(String line) {
        return line.substring(0, line.indexOf(": "));
    }
}
