package io.kvledger.infrastructure.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command holding only the subcommand the first argument names. Picocli builds the model of every
 * subcommand it is given when the command line is made (their classes, options, converters and
 * annotations, and the fleet's {@code ObjectMapper}): a third of the start of {@code audit} of a small
 * log. So a run that names its command gets a tree of that one command; anything else (no command, an
 * unknown one, {@code help}) gets {@link KvLedgerCli}'s whole tree. Both have the same top command (name,
 * standard options, version), so what a subcommand prints is the same; {@code OneCommandCliTest} holds
 * every command's usage text and output to the whole tree's.
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

    /**
     * A new command object for a subcommand's name, or {@code null} for {@code help} and names that are none.
     * The names are read from {@link KvLedgerCli}'s own list of subcommands, so a command added there is
     * found here too; reading one annotation of each class is cheap, building their models is not.
     */
    static Object command(String name) {
        if ("help".equals(name)) {
            return null;
        }
        for (Class<?> type : KvLedgerCli.class.getAnnotation(Command.class).subcommands()) {
            Command command = type.getAnnotation(Command.class);
            if (command != null && command.name().equals(name)) {
                try {
                    return type.getDeclaredConstructor().newInstance();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot make the command " + name + ": " + e, e);
                }
            }
        }
        return null;
    }

    @Override
    public void run() {
        throw new IllegalStateException("the top command runs only through KvLedgerCli's whole tree");
    }
}
