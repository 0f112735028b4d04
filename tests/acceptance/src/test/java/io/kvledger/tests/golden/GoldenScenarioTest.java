package io.kvledger.tests.golden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.testkit.scenario.Expectations;
import io.kvledger.testkit.scenario.ScenarioFolder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example scenario against its expectation file, checked by the testkit's scenario runner: once
 * through the command line's own code path, once on the embedding API in process.
 */
class GoldenScenarioTest {

    @TempDir
    Path work;

    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        return ScenarioFolder.scenarios(examples()).stream();
    }

    static Path examples() throws URISyntaxException {
        return Path.of(GoldenScenarioTest.class.getResource("/examples").toURI());
    }

    @TestFactory
    Stream<DynamicTest> everyExampleMeetsItsExpectationsOnTheEmbeddingApi() throws URISyntaxException {
        return ScenarioFolder.tests(examples());
    }

    @Test
    void everyExampleHasAnExpectationFile() throws Exception {
        List<Path> all = scenarios().toList();
        assertEquals(19, all.size(), "examples copied from the shared examples (17-19: contract revision 6)");
        for (Path scenario : all) {
            assertTrue(Files.exists(expectationOf(scenario)), "no expectation file for " + scenario);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void scenarioMeetsItsExpectations(Path scenario) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        List<String> failures = ScenarioFolder.failures(scenario, (in, log) -> KvLedgerCli.execute(new ByteArrayOutputStream(),
                new PrintStream(err, true, StandardCharsets.UTF_8), "run", in.toString(), "-o", log.toString()));

        assertTrue(failures.isEmpty(), String.join("\n", failures) + "\nstderr: " + err);
    }

    @Test
    void aMatchThatCannotBeFoundFailsTheCheck() throws IOException {
        Path log = work.resolve("log.jsonl");
        Files.writeString(log, "{\"seq\": 1, \"type\": \"EngineConfigured\"}\n{\"seq\": 2, \"type\": \"RequestAborted\", \"requestId\": \"r\"}\n");
        Path expect = work.resolve("x.expect.jsonl");
        Files.writeString(expect, "{\"match\": {\"type\": \"RequestAborted\"}}\n{\"match\": {\"type\": \"RequestAborted\"}}\n"
                + "{\"none\": {\"type\": \"EngineConfigured\"}}\n{\"count\": {\"type\": \"RequestAborted\"}, \"n\": 2}\n{\"exit\": 1}\n");

        List<String> failures = Expectations.read(expect).failures(Expectations.readLog(log), 0);

        assertEquals(4, failures.size(), String.join("\n", failures));
        assertFalse(failures.get(0).contains("line 1 "), "the first match is found");
    }

    private static Path expectationOf(Path scenario) {
        return ScenarioFolder.expectationOf(scenario);
    }
}
