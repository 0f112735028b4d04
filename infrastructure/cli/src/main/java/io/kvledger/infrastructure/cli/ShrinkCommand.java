package io.kvledger.infrastructure.cli;

import io.kvledger.application.check.FindingCodes;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.finding.FindingCode;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import io.kvledger.simulation.shrink.Scenario;
import io.kvledger.simulation.shrink.ScenarioExecution;
import io.kvledger.simulation.shrink.ScenarioOracle;
import io.kvledger.simulation.shrink.Shrinker;
import io.kvledger.simulation.shrink.ViolationOracle;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "shrink", mixinStandardHelpOptions = true,
        description = {"Reduces a scenario whose run shows CODE to a minimal scenario that still does.",
                "CODE is EXCEPTION (the engine throws), a log check's code (STORE_SLICE_MISMATCH, STORE_BEYOND_BOUND,",
                "TIER_OVER_CAPACITY, JOB_COMPLETED_TWICE, ...) or a rejection code (INVALID_STATE, ...)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the shrunk scenario is written", "1:the scenario does not show CODE",
                "2:a malformed scenario, a missing or unreadable file, an unwritable output or an unknown CODE"})
final class ShrinkCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "The scenario to shrink.")
    Path scenario;

    @Option(names = "--until", required = true, paramLabel = "CODE", converter = CodeConverter.class,
            description = "What the shrunk scenario must still show: an audit code, a check code or a rejection code.")
    FindingCode code;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write the shrunk scenario here instead of stdout.")
    Path output;

    @Option(names = "--progress", description = "Report progress (oracle runs) on stderr even when it is not a terminal.")
    boolean progress;

    /** An unknown code is a usage error (exit 2), naming the known ones. */
    static final class CodeConverter implements picocli.CommandLine.ITypeConverter<FindingCode> {
        @Override
        public FindingCode convert(String value) {
            try {
                return FindingCodes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        Scenario input;
        try (InputStream in = Inputs.open(scenario)) {
            byte[] bytes = in.readAllBytes();
            // The streaming reader first: it names the line of invalid UTF-8 or bad JSON, and keeps to the line limit.
            ScenarioReader reader = new ScenarioReader(new ByteArrayInputStream(bytes));
            while (reader.next() != null) {
                // every line read, none kept
            }
            input = Scenario.parse(new String(bytes, StandardCharsets.UTF_8));
        } catch (InputFailure e) {
            return Cli.fail(e.getMessage());
        } catch (MalformedLineException e) {
            return Cli.fail(scenario + ": " + e.getMessage());
        }
        // The real engine and the log rules, the audit's among them, so any audit code can be shrunk for.
        ScenarioOracle oracle = new ViolationOracle(ScenarioExecution.ledger(), EventLogRules::new, code);
        Progress shown = Progress.of(progress, Cli.stderr(), "shrink", 0, "runs");
        long[] runs = {0};
        ScenarioOracle counted = shown == null ? oracle : candidate -> {
            shown.update(++runs[0], runs[0], 0);
            return oracle.shows(candidate);
        };
        Shrinker.Result result;
        try {
            result = new Shrinker(counted).shrink(input);
        } catch (IllegalArgumentException e) {
            Cli.say(scenario + " does not show " + code.name());
            return Cli.EXIT_FAILURE;
        }
        if (shown != null) {
            shown.finish(runs[0], runs[0], 0);
        }
        try (Output out = Output.to(output); Writer writer = out.writer()) {
            writer.write(result.scenario().text());
            writer.flush();
            out.commit();
        }
        Cli.say("shrunk " + result.originalLines() + " commands to " + result.scenario().size()
                + " still showing " + code.name() + " (" + result.oracleRuns() + " runs)");
        return 0;
    }
}
