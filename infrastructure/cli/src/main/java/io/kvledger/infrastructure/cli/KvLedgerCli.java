package io.kvledger.infrastructure.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import io.kvledger.infrastructure.serve.ServeCommand;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "kvledger", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "The lifecycle of LLM inference requests and their KV-cache blocks, as an event log.",
        subcommands = {RunCommand.class, ReplayCommand.class, AuditCommand.class, ExplainCommand.class,
                SimulateCommand.class, ShrinkCommand.class, TraceCommand.class, ExportCommand.class, FleetCommand.class,
                ServeCommand.class, DiffCommand.class, BenchCommand.class, HelpCommand.class})
public final class KvLedgerCli implements Runnable {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        CompilerDirectives.installRequested(); // first, before C2 compiles what the launcher left to C1
        quietFramework();
        // The raw descriptor, not System.out: a PrintStream swallows write errors (a full disk, a closed pipe).
        System.exit(execute(new FileOutputStream(FileDescriptor.out), System.err, args));
    }

    /** Runs the command line in this process, writing to the given streams; returns the exit code. */
    public static int execute(OutputStream out, PrintStream err, String... args) {
        return execute(out, err, false, args);
    }

    /** @param wholeTree build every command's model, not only the one {@code args} names (for comparing the two) */
    static int execute(OutputStream out, PrintStream err, boolean wholeTree, String... args) {
        Cli.redirect(out, err);
        try {
            CommandLine commandLine = (wholeTree ? new CommandLine(new KvLedgerCli()) : OneCommandCli.commandLine(args))
                    .setOut(Output.stdout().printWriter())
                    .setErr(new PrintWriter(err, true))
                    .setExecutionExceptionHandler((e, cmd, parsed) -> Cli.failure(e));
            // Help and usage are written by the strategy itself, outside the exception handler.
            commandLine.setExecutionStrategy(parsed -> {
                try {
                    return new CommandLine.RunLast().execute(parsed);
                } catch (OutputFailure e) {
                    return Cli.failure(e);
                }
            });
            int exit = commandLine.execute(args);
            commandLine.getOut().flush();
            return exit;
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            return Cli.failure(e); // help or usage text that could not be written, or memory that ran out
        }
    }

    @Override
    public void run() {
        String commands = String.join(", ", spec.subcommands().keySet().stream().filter(name -> !"help".equals(name)).toList());
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (" + commands + ")");
    }

    /**
     * The product never phones home and keeps stdout for the log: Axon's update checker is off, its
     * console banner is hidden, and only warnings are logged (on stderr).
     */
    private static void quietFramework() {
        setIfAbsent("axoniq.update-checker.disabled", "true");
        setIfAbsent("disable-axoniq-console-message", "true");
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
        // The store's own warnings (a torn end cut) are printed by the command line as kvledger: messages.
        setIfAbsent("org.slf4j.simpleLogger.log.io.kvledger.infrastructure.store.StoreFile", "error");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
