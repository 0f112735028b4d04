package io.kvledger.tests.incidents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.testkit.scenario.ScenarioFolder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * vLLM's own offloading bugs as named scenarios ({@code incidents/README.md} tells each story). Each
 * incident is two files of one name: {@code scenarios/NAME.jsonl}, the host's commands, which kvledger
 * must answer as its expectation file says (and whose log must audit clean); and
 * {@code vllm-logs/NAME.jsonl}, the decisions the buggy vLLM scheduler made for the same commands, on
 * which {@code kvledger audit} must find exactly the violations of its {@code .expect} file.
 */
class IncidentScenariosTest {

    /** The vLLM issues and pull requests the incidents come from; each must have its scenario. */
    private static final List<String> INCIDENTS = List.of("42959", "44784", "46972", "46014", "49118", "52211", "54193", "46951", "44585", "48959", "49635");

    @TempDir
    Path work;

    static Path incidents() throws URISyntaxException {
        return Path.of(IncidentScenariosTest.class.getResource("/incidents").toURI());
    }

    static Stream<Path> scenarios() throws URISyntaxException {
        return ScenarioFolder.scenarios(incidents().resolve("scenarios")).stream();
    }

    static Stream<Path> vllmLogs() throws IOException, URISyntaxException {
        try (Stream<Path> files = Files.list(incidents().resolve("vllm-logs"))) {
            return files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList().stream();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyIncidentIsAnsweredAsExpectedOnTheEmbeddingApi() throws URISyntaxException {
        return ScenarioFolder.tests(incidents().resolve("scenarios"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void kvledgerRunAnswersTheIncidentAsExpectedAndItsLogAuditsClean(Path scenario) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path log = work.resolve("events.jsonl");

        List<String> failures = ScenarioFolder.failures(scenario, (in, out) -> KvLedgerCli.execute(new ByteArrayOutputStream(),
                new PrintStream(err, true, StandardCharsets.UTF_8), "run", in.toString(), "-o", out.toString()));
        assertEquals(List.of(), failures, "stderr: " + err);

        assertEquals(0, KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "run", scenario.toString(), "-o", log.toString()), err.toString(StandardCharsets.UTF_8));
        Audit audit = audit(log);
        assertEquals(0, audit.exit(), "kvledger's own answer audits clean:\n" + String.join("\n", audit.lines()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vllmLogs")
    void theAuditFindsWhatTheBuggyVllmDid(Path vllmLog) throws Exception {
        List<String> expected = Files.readAllLines(vllmLog.resolveSibling(vllmLog.getFileName().toString()
                .replace(".jsonl", ".expect"))).stream().filter(line -> !line.isBlank()).toList();
        assertFalse(expected.isEmpty(), "a vLLM log of an incident breaks a rule: " + vllmLog);

        Audit audit = audit(vllmLog);

        assertEquals(expected, audit.lines().stream().map(IncidentScenariosTest::withoutReason).toList(),
                String.join("\n", audit.lines()));
        assertEquals(1, audit.exit());
    }

    @Test
    void everyIncidentHasItsScenarioItsVllmLogAndItsStory() throws Exception {
        String story = Files.readString(incidents().resolve("README.md"));
        List<String> scenarioNames = scenarios().map(IncidentScenariosTest::name).toList();
        List<String> logNames = vllmLogs().map(IncidentScenariosTest::name).toList();
        assertEquals(scenarioNames, logNames, "one vLLM log per scenario, of the same name");
        for (String name : scenarioNames) {
            assertTrue(story.contains("`" + name + "`"), "README.md tells the story of " + name);
        }
        for (String incident : INCIDENTS) {
            assertTrue(scenarioNames.stream().anyMatch(name -> name.contains("_" + incident + "_")), "no scenario of vLLM #" + incident);
        }
    }

    private record Audit(int exit, List<String> lines) {
    }

    private static Audit audit(Path log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", log.toString());
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(exit != 2, "the log is well formed: " + err.toString(StandardCharsets.UTF_8));
        return new Audit(exit, text.isEmpty() ? List.of() : Arrays.asList(text.split("\n")));
    }

    private static String name(Path file) {
        String name = file.getFileName().toString();
        return name.substring(0, name.length() - ".jsonl".length());
    }

    private static String withoutReason(String line) {
        int colon = line.indexOf(": ");
        return colon < 0 ? line : line.substring(0, colon);
    }
}
