package io.kvledger.infrastructure.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code kvledger help [COMMAND [SUBCOMMAND...]]}: the usage of the command the names lead to, nested ones
 * included ({@code help fleet node} is the fleet node's usage; picocli's own help command reads only the first
 * name).
 */
@Command(name = "help", helpCommand = true, description = "Display help information about the specified command.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "The command to show the usage of, with its subcommands (e.g. fleet node).")
    String[] names = {};

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show usage help for the help command and exit.")
    boolean helpRequested;

    private CommandLine self;
    private Help.ColorScheme colors;
    private PrintWriter out;

    @Override
    public void init(CommandLine helpCommandLine, Help.ColorScheme colorScheme, PrintWriter outWriter, PrintWriter errWriter) {
        this.self = helpCommandLine;
        this.colors = colorScheme;
        this.out = outWriter;
    }

    @Override
    public void run() {
        CommandLine target = self.getParent();
        for (String name : names) {
            CommandLine next = target.getSubcommands().get(name);
            if (next == null) {
                throw new ParameterException(self, "Unknown subcommand '" + name + "' of "
                        + target.getCommandSpec().qualifiedName() + ".");
            }
            target = next;
        }
        target.usage(out, colors);
    }
}
