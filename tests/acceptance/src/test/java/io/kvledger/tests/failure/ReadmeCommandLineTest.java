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
 * line has; every exit status a command's help names is in the exit policy of docs/cli.md and of docs/failures.md.
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

    @Test
    void everyExitStatusACommandsHelpNamesIsInTheExitPolicy() throws Exception {
        String cli = Files.readString(Path.of("../../docs/cli.md"));
        String policy = cli.substring(cli.indexOf("## Exit statuses"));
        policy = policy.substring(0, policy.indexOf("\n## ", 3));
        String failures = Files.readString(Path.of("../../docs/failures.md"));
        Map<String, String> named = new java.util.TreeMap<>();
        helpsExitStatuses(new CommandLine(new KvLedgerCli()), named);
        assertTrue(named.containsKey("3"), "fleet status's help names its exit 3: " + named);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, String> status : named.entrySet()) {
            if (!java.util.regex.Pattern.compile("[:;] " + status.getKey() + " ").matcher(policy).find()) {
                missing.add("docs/cli.md's exit statuses: " + status.getKey() + " (" + status.getValue() + ")");
            }
            if (!failures.contains("\n| " + status.getKey() + " | ")) {
                missing.add("docs/failures.md's exit codes: " + status.getKey() + " (" + status.getValue() + ")");
            }
        }
        assertTrue(missing.isEmpty(), "exit statuses the help gives and the docs' policy omits: " + missing);
    }

    /** Every "exit N" of a command's help (its subcommands' too), with the first command that names it. */
    private static void helpsExitStatuses(CommandLine command, Map<String, String> named) {
        java.util.regex.Matcher exit = java.util.regex.Pattern.compile("\\bexits? (\\d+)\\b")
                .matcher(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
        while (exit.find()) {
            named.putIfAbsent(exit.group(1), command.getCommandSpec().qualifiedName());
        }
        command.getSubcommands().values().forEach(sub -> helpsExitStatuses(sub, named));
    }
}
