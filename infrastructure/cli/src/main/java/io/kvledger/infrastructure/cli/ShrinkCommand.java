package io.kvledger.infrastructure.cli;

import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.check.FindingCode;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.shrink.Scenario;
import io.kvledger.infrastructure.shrink.ScenarioExecution;
import io.kvledger.infrastructure.shrink.Shrinker;
import io.kvledger.infrastructure.shrink.ViolationOracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
                "2:a malformed scenario or a missing file"})
final class ShrinkCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "The scenario to shrink.")
    Path scenario;

    @Option(names = "--until", required = true, paramLabel = "CODE", converter = CodeConverter.class,
            description = "What the shrunk scenario must still show: an audit code, a check code or a rejection code.")
    FindingCode code;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "Write the shrunk scenario here instead of stdout.")
    Path output;

    /** An unknown code is a usage error (exit 2), naming the known ones. */
    static final class CodeConverter implements picocli.CommandLine.ITypeConverter<FindingCode> {
        @Override
        public FindingCode convert(String value) {
            try {
                return FindingCode.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        Scenario input;
        try {
            input = Scenario.parse(Files.readString(scenario, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Cli.fail("cannot read " + e.getFile() + ": no such file");
        } catch (MalformedLineException e) {
            return Cli.fail(scenario + ": " + e.getMessage());
        }
        // The real engine and the log rules, the audit's among them, so any audit code can be shrunk for.
        ViolationOracle oracle = new ViolationOracle(ScenarioExecution.ledger(), EventLogRules::new, code);
        Shrinker.Result result;
        try {
            result = new Shrinker(oracle).shrink(input);
        } catch (IllegalArgumentException e) {
            Cli.stderr().println("kvledger: " + scenario + " does not show " + code.name());
            return Cli.EXIT_FAILURE;
        }
        String text = result.scenario().text();
        if (output == null) {
            Cli.stdout().write(text.getBytes(StandardCharsets.UTF_8));
            Cli.stdout().flush();
        } else {
            Files.writeString(output, text, StandardCharsets.UTF_8);
        }
        Cli.stderr().println("kvledger: shrunk " + result.originalLines() + " commands to " + result.scenario().size()
                + " still showing " + code.name() + " (" + result.oracleRuns() + " runs)");
        return 0;
    }
}
