package io.kvledger.infrastructure.cli;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import io.kvledger.infrastructure.shrink.Scenario;
import io.kvledger.infrastructure.shrink.ScenarioExecution;
import io.kvledger.infrastructure.shrink.ScenarioOracle;
import io.kvledger.infrastructure.shrink.Shrinker;
import io.kvledger.infrastructure.shrink.ViolationOracle;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

    @Option(names = "--until", required = true, paramLabel = "CODE", description = "What the shrunk scenario must still show.")
    String code;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write the shrunk scenario here instead of stdout.")
    Path output;

    @Option(names = "--progress", description = "Report progress (oracle runs) on stderr even when it is not a terminal.")
    boolean progress;

    @Spec
    CommandSpec spec;

    /** Every code the oracle can show. */
    static Set<String> codes() {
        Set<String> codes = new LinkedHashSet<>();
        codes.add(ViolationOracle.EXCEPTION);
        Arrays.stream(AuditCode.values()).map(Enum::name).forEach(codes::add);
        codes.addAll(EventLogRules.OWN_CODES);
        Arrays.stream(RejectionCode.values()).map(Enum::name).forEach(codes::add);
        return codes;
    }

    @Override
    public Integer call() throws IOException {
        if (!codes().contains(code)) {
            throw new ParameterException(spec.commandLine(), "--until " + code + " is not a code; one of " + codes());
        }
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
            Cli.say(scenario + " does not show " + code);
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
                + " still showing " + code + " (" + result.oracleRuns() + " runs)");
        return 0;
    }
}
