package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A run that names its command gets only that command's tree, and it is the whole tree's command in every respect a user sees. */
class OneCommandCliTest {

    private final CommandLine whole = new CommandLine(new KvLedgerCli());

    @Test
    void everyCommandOfTheWholeTreeHasItsOneCommandTree() {
        Set<String> named = new TreeSet<>();
        for (String name : whole.getSubcommands().keySet()) {
            if (OneCommandCli.command(name) != null) {
                named.add(name);
            }
        }
        Set<String> expected = new TreeSet<>(whole.getSubcommands().keySet());
        expected.remove("help");
        assertEquals(expected, named, "commands the one-command tree knows");
        for (String name : expected) {
            CommandLine one = OneCommandCli.commandLine(name, "--help");
            assertEquals(Set.of(name), one.getSubcommands().keySet(), name);
            assertSame(whole.getSubcommands().get(name).getCommandSpec().userObject().getClass(),
                    one.getSubcommands().get(name).getCommandSpec().userObject().getClass(), name);
        }
    }

    @Test
    void helpNoCommandAndUnknownNamesGetTheWholeTree() {
        for (String[] args : List.of(new String[0], new String[] {"help", "audit"}, new String[] {"audti", "x"},
                new String[] {"--version"}, new String[] {"-h"})) {
            assertEquals(whole.getSubcommands().keySet(), OneCommandCli.commandLine(args).getSubcommands().keySet());
        }
        assertNull(OneCommandCli.command("help"));
    }

    @Test
    void everyCommandsUsageAndTopOptionsAreTheWholeTrees() {
        List<String> differing = new ArrayList<>();
        for (Map.Entry<String, CommandLine> command : whole.getSubcommands().entrySet()) {
            if (command.getKey().equals("help")) {
                continue;
            }
            CommandLine one = OneCommandCli.commandLine(command.getKey()).getSubcommands().get(command.getKey());
            compare(command.getValue(), one, "kvledger " + command.getKey(), differing);
        }
        assertEquals(List.of(), differing, "usage texts that differ between the trees");
        CommandLine top = OneCommandCli.commandLine("audit");
        assertEquals(whole.getCommandSpec().qualifiedName(), top.getCommandSpec().qualifiedName());
        assertEquals(whole.getCommandSpec().optionsMap().keySet(), top.getCommandSpec().optionsMap().keySet());
        assertEquals(List.of(whole.getCommandSpec().version()), List.of(top.getCommandSpec().version()));
    }

    @Test
    void aCommandRunThroughEitherTreePrintsTheSameBytes() {
        for (String[] args : List.of(new String[] {"audit", "--help"}, new String[] {"audit"},
                new String[] {"replay", "--no-such-option", "x"}, new String[] {"simulate", "--requests", "many"},
                new String[] {"simulate", "--requests", "3", "--seed", "5"}, new String[] {"fleet", "node", "--help"},
                new String[] {"audit", "--version"})) {
            assertEquals(run(false, args), run(true, args), String.join(" ", args));
        }
    }

    /** Exit code, stdout and stderr of {@code args} through the one-command tree or the whole one. */
    private static String run(boolean wholeTree, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), wholeTree, args);
        // The simulation's summary ends with its own rate, the one line that is the clock's.
        String printed = exit + "\n" + out.toString(StandardCharsets.UTF_8) + "\n" + err.toString(StandardCharsets.UTF_8);
        return printed.replaceAll("[0-9.]+ s, [0-9]+ events/s", "RATE");
    }

    private static void compare(CommandLine expected, CommandLine actual, String name, List<String> differing) {
        if (!expected.getUsageMessage().equals(actual.getUsageMessage())) {
            differing.add(name);
        }
        assertEquals(expected.getSubcommands().keySet(), actual.getSubcommands().keySet(), name);
        for (Map.Entry<String, CommandLine> sub : expected.getSubcommands().entrySet()) {
            compare(sub.getValue(), actual.getSubcommands().get(sub.getKey()), name + " " + sub.getKey(), differing);
        }
    }
}
