package io.kvledger.tests.golden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example scenario, run through the command line's own code path, against its expectation file. */
class GoldenScenarioTest {

    @TempDir
    Path work;

    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        Path examples = Path.of(GoldenScenarioTest.class.getResource("/examples").toURI());
        return Files.list(examples)
                .filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(".expect.jsonl"))
                .sorted();
    }

    @Test
    void everyExampleHasAnExpectationFile() throws Exception {
        List<Path> all = scenarios().toList();
        assertEquals(10, all.size(), "examples copied from ../shared/examples");
        for (Path scenario : all) {
            assertTrue(Files.exists(expectationOf(scenario)), "no expectation file for " + scenario);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void scenarioMeetsItsExpectations(Path scenario) throws IOException {
        Path log = work.resolve(scenario.getFileName() + ".events.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "run", scenario.toString(), "-o", log.toString());

        List<String> failures = Expectations.read(expectationOf(scenario)).failures(Expectations.readLog(log), exit);

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
        String name = scenario.getFileName().toString().replace(".jsonl", ".expect.jsonl");
        return scenario.resolveSibling(name);
    }
}
