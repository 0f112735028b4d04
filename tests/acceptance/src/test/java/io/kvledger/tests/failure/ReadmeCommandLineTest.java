package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The README points to docs/cli.md, whose command table names every command and every option the command
 * line has.
 */
class ReadmeCommandLineTest {

    private static final Set<String> STANDARD = Set.of("--help", "--version");

    @Test
    void everyCommandAndOptionIsInTheReadmesTable() throws Exception {
        assertTrue(Files.readString(Path.of("../../README.md")).contains("(docs/cli.md)"), "the README links docs/cli.md");
        Path readme = Path.of("../../docs/cli.md");
        List<String> table = Files.readAllLines(readme).stream().filter(line -> line.startsWith("| `kvledger ")).toList();
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, CommandLine> command : new CommandLine(new KvLedgerCli()).getSubcommands().entrySet()) {
            if (command.getKey().equals("help")) {
                continue;
            }
            String row = table.stream().filter(line -> line.startsWith("| `kvledger " + command.getKey() + " ")).findFirst()
                    .orElse(null);
            if (row == null) {
                missing.add(command.getKey());
                continue;
            }
            for (OptionSpec option : command.getValue().getCommandSpec().options()) {
                if (!STANDARD.contains(option.longestName())
                        && java.util.Arrays.stream(option.names()).noneMatch(name -> row.contains("[" + name + " ")
                                || row.contains("[" + name + "]") || row.contains(" " + name + " "))) {
                    missing.add(command.getKey() + " " + option.longestName());
                }
            }
        }
        assertTrue(missing.isEmpty(), "missing from the command table of docs/cli.md: " + missing);
    }
}
