package io.kvledger.infrastructure.cli;

import io.kvledger.infrastructure.serve.ServeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command holding only the subcommand the first argument names. Picocli builds the model of every
 * subcommand it is given when the command line is made (their classes, options, converters and
 * annotations, and the fleet's {@code ObjectMapper}): a third of the start of {@code audit} of a small
 * log. So a run that names its command gets a tree of that one command; anything else (no command, an
 * unknown one, {@code help}) gets {@link KvLedgerCli}'s whole tree. Both have the same top command (name,
 * standard options, version), so what a subcommand prints is the same; {@code OneCommandCliTest} holds
 * this list to {@link KvLedgerCli}'s and every command's usage text to the whole tree's.
 */
@Command(name = "kvledger", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class)
final class OneCommandCli implements Runnable {

    private OneCommandCli() {
    }

    /** The command line for {@code args}: just the named command under the top one, or the whole tree. */
    static CommandLine commandLine(String... args) {
        Object command = args.length == 0 ? null : command(args[0]);
        if (command == null) {
            return new CommandLine(new KvLedgerCli());
        }
        return new CommandLine(new OneCommandCli()).addSubcommand(command);
    }

    /** A new command object for a subcommand's name, or {@code null} for {@code help} and names that are none. */
    static Object command(String name) {
        return switch (name) {
            case "run" -> new RunCommand();
            case "replay" -> new ReplayCommand();
            case "audit" -> new AuditCommand();
            case "explain" -> new ExplainCommand();
            case "simulate" -> new SimulateCommand();
            case "shrink" -> new ShrinkCommand();
            case "trace" -> new TraceCommand();
            case "export" -> new ExportCommand();
            case "fleet" -> new FleetCommand();
            case "serve" -> new ServeCommand();
            case "diff" -> new DiffCommand();
            case "bench" -> new BenchCommand();
            default -> null;
        };
    }

    @Override
    public void run() {
        throw new IllegalStateException("the top command runs only through KvLedgerCli's whole tree");
    }
}
