package io.kvledger.testkit.scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;

/**
 * A JUnit 5 dynamic test per scenario of a folder: each {@code NAME.jsonl} is run and its event log and
 * exit status checked against {@code NAME.expect.jsonl} (contract section 6). A scenario without an
 * expectation file fails, so a forgotten file is not a silent pass.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> scenarios() {
 *     return ScenarioFolder.tests(Path.of("src/test/resources/scenarios"));
 * }
 * }</pre>
 */
public final class ScenarioFolder {

    /** Runs a scenario on the embedding API, in this process, with the in-memory store. */
    public static final ScenarioExecutor IN_PROCESS = new InProcessRun();

    private static final String EXPECT = ".expect.jsonl";

    private ScenarioFolder() {
    }

    /** One test per scenario of {@code folder}, run {@link #IN_PROCESS}. */
    public static Stream<DynamicTest> tests(Path folder) {
        return tests(folder, IN_PROCESS);
    }

    /** One test per scenario of {@code folder}, run by {@code executor}. */
    public static Stream<DynamicTest> tests(Path folder, ScenarioExecutor executor) {
        List<Path> scenarios = scenarios(folder);
        if (scenarios.isEmpty()) {
            throw new IllegalArgumentException("no scenario (*.jsonl beside a *.expect.jsonl) in " + folder);
        }
        return scenarios.stream().map(s -> DynamicTest.dynamicTest(s.getFileName().toString(), s.toUri(),
                () -> Assertions.assertEquals(List.of(), failures(s, executor), "the expectations of " + s + " that failed")));
    }

    /** The scenarios of {@code folder}, by name: every {@code *.jsonl} that is not an expectation file. */
    public static List<Path> scenarios(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.toString().endsWith(".jsonl") && !p.toString().endsWith(EXPECT)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the scenarios of " + folder, e);
        }
    }

    /** The expectation file of {@code scenario}: {@code NAME.expect.jsonl} beside {@code NAME.jsonl}. */
    public static Path expectationOf(Path scenario) {
        String name = scenario.getFileName().toString();
        return scenario.resolveSibling(name.substring(0, name.length() - ".jsonl".length()) + EXPECT);
    }

    /** Every failed check of one scenario's run, each naming its expectation line; empty when all hold. */
    public static List<String> failures(Path scenario, ScenarioExecutor executor) throws Exception {
        Path expectations = expectationOf(scenario);
        if (!Files.exists(expectations)) {
            return List.of("no expectation file " + expectations);
        }
        Path log = Files.createTempFile("kvledger-scenario-", ".events.jsonl");
        try {
            int exit = executor.run(scenario, log);
            return Expectations.read(expectations).failures(Expectations.readLog(log), exit);
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
