package io.kvledger.infrastructure.cli;

import io.kvledger.application.KvLedger;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Executes a scenario's commands and writes the event log (contract section 5).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the scenario ran to its end (rejected commands included)",
                "2:a malformed line (named on stderr; the events before it are kept), or a missing file"})
final class RunCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "JSON Lines scenario: an optional config line, then commands.")
    Path scenario;

    @Option(names = {"-o", "--output"}, paramLabel = "EVENTS", description = "Write the event log here instead of stdout.")
    Path output;

    @Override
    public Integer call() throws IOException {
        ScenarioRunner runner = new ScenarioRunner(config -> KvLedger.builder().config(config).build());
        try (InputStream in = Files.newInputStream(scenario); Writer out = openOutput()) {
            runner.run(in, new EventLogWriter(out));
            return 0;
        } catch (NoSuchFileException e) {
            return Cli.fail("cannot read " + e.getFile() + ": no such file");
        } catch (MalformedLineException e) {
            return Cli.fail(scenario + ": " + e.getMessage());
        }
    }

    private Writer openOutput() throws IOException {
        if (output == null) {
            return new BufferedWriter(new OutputStreamWriter(Cli.stdout(), StandardCharsets.UTF_8)) {
                @Override
                public void close() throws IOException {
                    flush(); // stdout stays open for whoever runs us
                }
            };
        }
        return Files.newBufferedWriter(output, StandardCharsets.UTF_8);
    }
}
