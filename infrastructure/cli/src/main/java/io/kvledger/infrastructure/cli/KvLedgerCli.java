package io.kvledger.infrastructure.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "kvledger", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "The lifecycle of LLM inference requests and their KV-cache blocks, as an event log.",
        subcommands = {RunCommand.class, ExportCommand.class, ReplayCommand.class, AuditCommand.class, ExplainCommand.class,
                SimulateCommand.class, ShrinkCommand.class, TraceCommand.class, FleetCommand.class, BenchCommand.class,
                CommandLine.HelpCommand.class})
public final class KvLedgerCli implements Runnable {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        quietFramework();
        System.exit(execute(System.out, System.err, args));
    }

    /** Runs the command line in this process, writing to the given streams; returns the exit code. */
    public static int execute(OutputStream out, PrintStream err, String... args) {
        Cli.redirect(out, err);
        CommandLine commandLine = new CommandLine(new KvLedgerCli());
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true))
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    Cli.internalError(e);
                    return Cli.EXIT_FAILURE;
                });
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (run, replay, audit, explain)");
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
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
