package io.kvledger.infrastructure.cli;

import io.kvledger.application.audit.AuditRules;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.infrastructure.fleet.FleetNode;
import io.kvledger.infrastructure.fleet.FleetQueries;
import io.kvledger.infrastructure.store.jdbc.LocalPostgres;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code kvledger fleet ...}: processing nodes and the fleet's projections (docs/fleet.md). */
@Command(name = "fleet", mixinStandardHelpOptions = true,
        description = "Fleet processing on a PostgreSQL store shared by many engines.",
        subcommands = {FleetCommand.Node.class, FleetCommand.Holders.class, FleetCommand.Violations.class,
                FleetCommand.Status.class, FleetCommand.Postgres.class})
final class FleetCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    static final ObjectMapper JSON = new ObjectMapper();

    static final class StoreOptions {
        @Option(names = "--store", required = true, paramLabel = "URL", description = "jdbc:postgresql://HOST:PORT/DB?user=U",
                converter = PostgresUrl.class)
        String url;

        @Option(names = "--view", defaultValue = "fleet", paramLabel = "NAME",
                description = "The view: its processor's name and its tables' prefix. Default: ${DEFAULT-VALUE}.")
        String view;
    }

    /** The fleet lives on PostgreSQL only: another location is a bad option (exit 2), refused before anything opens. */
    static final class PostgresUrl implements picocli.CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.startsWith("jdbc:postgresql:")) {
                throw new picocli.CommandLine.TypeConversionException("the fleet's store is a PostgreSQL database: give"
                        + " jdbc:postgresql://HOST:PORT/DB?user=U, was '" + value + "'");
            }
            return value;
        }
    }

    @Command(name = "node", mixinStandardHelpOptions = true,
            description = "Runs a processing node until stopped (Ctrl-C or SIGTERM); nodes share the view's segments.")
    static final class Node implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Option(names = "--node", required = true, paramLabel = "ID", description = "This node's id in the token store.")
        String nodeId;

        @Option(names = "--segments", defaultValue = "4", description = "Segments of a new view. Default: ${DEFAULT-VALUE}.")
        int segments;

        @Option(names = "--batch-size", defaultValue = "100",
                description = "Most messages (engine steps) applied per transaction. Default: ${DEFAULT-VALUE}.")
        int batchSize;

        @Option(names = "--no-audit", description = "Build the view without the continuous audit (to measure what it costs).")
        boolean noAudit;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws InterruptedException {
            if (segments < 1 || batchSize < 1) {
                throw new ParameterException(spec.commandLine(), (segments < 1 ? "--segments" : "--batch-size")
                        + " must be at least 1, was " + Math.min(segments, batchSize));
            }
            if (nodeId.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--node must not be empty: it names the node in the token store");
            }
            CountDownLatch stopped = new CountDownLatch(1);
            PostgresStore shared = PostgresStore.open(store.url, 6);
            FleetNode.Settings settings = FleetNode.Settings.of(segments).withBatchSize(batchSize);
            FleetNode node = FleetNode.start(shared, store.view, nodeId, noAudit ? settings.withoutAudit() : settings);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                node.close();
                shared.close();
                stopped.countDown();
            }));
            System.err.println("kvledger fleet: node " + nodeId + " processing view " + store.view);
            stopped.await();
            return 0;
        }
    }

    @Command(name = "holders", mixinStandardHelpOptions = true,
            description = "For each chunk key, the engines whose CPU tier holds it (one JSON line per key).")
    static final class Holders implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "KEY", arity = "0..*", description = "Chunk keys; none: the whole index, per engine.")
        List<String> keys = List.of();

        @Override
        public Integer call() throws Exception {
            try (PostgresStore shared = PostgresStore.open(store.url, 1)) {
                FleetQueries queries = new FleetQueries(shared, store.view);
                PrintWriter out = spec.commandLine().getOut();
                if (keys.isEmpty()) {
                    for (var entry : queries.index().entrySet()) {
                        out.println(JSON.writeValueAsString(Map.of("engine", entry.getKey(), "keys", entry.getValue())));
                    }
                } else {
                    for (var entry : queries.holders(keys).entrySet()) {
                        out.println(JSON.writeValueAsString(Map.of("key", entry.getKey(), "engines", entry.getValue())));
                    }
                }
                out.flush();
            }
            return 0;
        }
    }

    @Command(name = "violations", mixinStandardHelpOptions = true,
            description = "What the continuous fleet audit found, one JSON line each; exit 1 when any"
                    + " (with --rules safety: any of the safety class).")
    static final class Violations implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Option(names = "--rules", paramLabel = "all|safety", converter = AuditCommand.RulesConverter.class,
                description = "Which findings: all (the default) or safety (only the safety class of contract 9.2).")
        AuditRules rules = AuditRules.ALL;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (PostgresStore shared = PostgresStore.open(store.url, 1)) {
                List<FleetQueries.EngineFinding> found = new FleetQueries(shared, store.view).violations(rules);
                PrintWriter out = spec.commandLine().getOut();
                for (FleetQueries.EngineFinding f : found) {
                    out.println(JSON.writeValueAsString(ViolationLine.of(f)));
                }
                out.flush();
                return found.isEmpty() ? 0 : 1;
            }
        }
    }

    /** A violation's JSON line: these fields, in this order. */
    record ViolationLine(String engineId, long seq, String code, String requestId, String reason) {
        static ViolationLine of(FleetQueries.EngineFinding f) {
            return new ViolationLine(f.engineId(), f.finding().seq(), f.finding().code().name(), f.finding().requestId(),
                    f.finding().reason());
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Per engine: domain events stored and seen by the view (one JSON line each); exit 3 while behind.")
    static final class Status implements Callable<Integer> {
        @Mixin
        StoreOptions store;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (PostgresStore shared = PostgresStore.open(store.url, 1)) {
                FleetQueries queries = new FleetQueries(shared, store.view);
                PrintWriter out = spec.commandLine().getOut();
                boolean behind = false;
                for (FleetQueries.EngineProgress p : queries.progress()) {
                    out.println(JSON.writeValueAsString(p));
                    behind |= p.stored() != p.seen();
                }
                out.flush();
                return behind ? 3 : 0;
            }
        }
    }

    @Command(name = "postgres", mixinStandardHelpOptions = true,
            description = "Starts a throwaway PostgreSQL from this machine's server binaries (as an unprivileged user"
                    + " when root), prints its JDBC URL and runs until stopped; its data is deleted then. For trying a fleet.")
    static final class Postgres implements Callable<Integer> {
        @Option(names = "--port", defaultValue = "51200", description = "The first port to try. Default: ${DEFAULT-VALUE}.")
        int port;

        @Option(names = "--database", defaultValue = "kvledger", description = "Database to create. Default: ${DEFAULT-VALUE}.")
        String database;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws InterruptedException {
            LocalPostgres server = LocalPostgres.start(port, List.of());
            server.createDatabase(database);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                stopped.countDown();
            }));
            spec.commandLine().getOut().println(server.jdbcUrl(database));
            spec.commandLine().getOut().flush();
            stopped.await();
            return 0;
        }
    }
}
