package io.kvledger.infrastructure.fleet;

import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventhandling.pooled.PooledStreamingEventProcessor;
import org.axonframework.eventhandling.tokenstore.jdbc.JdbcTokenStore;
import org.axonframework.eventhandling.tokenstore.jdbc.PostgresTokenTableFactory;
import org.axonframework.eventsourcing.eventstore.EmbeddedEventStore;

/**
 * One processing node of the fleet: Axon's {@link PooledStreamingEventProcessor} over the shared event
 * store, its segments claimed through a {@link JdbcTokenStore} in the same database, so any number of
 * nodes (JVMs, machines) share the work. Events are split into segments by engine id, so an engine's
 * events stay in order on one segment. A node that stops releases its claims; one that dies loses them
 * when they time out ({@link #CLAIM_TIMEOUT}) and a live node takes them.
 *
 * <p>Axon 4 does not balance segments between nodes: the first node would keep all of them. Each node
 * heartbeats in {@code <view>_node}; one holding more than its fair share (segments over live nodes,
 * rounded up) releases one for a while, and a node short of its share claims what is free.
 */
public final class FleetNode implements AutoCloseable {

    /**
     * How a node processes its view: its segments (of a new view), the most messages (steps) per batch,
     * one transaction each, and whether it runs the continuous audit (the default; without it the view's
     * violations stay empty, which shows what the audit costs).
     */
    public record Settings(int segments, int batchSize, boolean audit) {

        public static final int DEFAULT_BATCH_SIZE = 100;

        public Settings {
            if (segments < 1 || batchSize < 1) {
                throw new IllegalArgumentException("segments and batch size must be at least 1, were " + segments + ", " + batchSize);
            }
        }

        public static Settings of(int segments) {
            return new Settings(segments, DEFAULT_BATCH_SIZE, true);
        }

        public Settings withBatchSize(int messages) {
            return new Settings(segments, messages, audit);
        }

        public Settings withoutAudit() {
            return new Settings(segments, batchSize, false);
        }
    }

    /** How long a claim of a node that stopped heartbeating stands before another node may take it. */
    public static final Duration CLAIM_TIMEOUT = Duration.ofSeconds(4);
    private static final Duration HEARTBEAT = Duration.ofMillis(500);
    /** How long the node waits before asking the store again once it has read every event. */
    private static final Duration POLL = Duration.ofMillis(50);
    /** One lock for the tables every node of every view creates when they are missing (token and node tables). */
    private static final long SCHEMA_LOCK = 0x6e6f6465L;

    private final PostgresStore store;
    private final FleetSchema schema;
    private final String nodeId;
    private final int segments;
    private final Configuration axon;
    private final ScheduledExecutorService balancer;

    private FleetNode(PostgresStore store, String view, String nodeId, Settings settings) {
        this.store = store;
        this.schema = new FleetSchema(view);
        this.nodeId = nodeId;
        this.segments = settings.segments();
        schema.create(store);
        createNodeTable();
        JdbcTokenStore tokens = JdbcTokenStore.builder().connectionProvider(store.transactions())
                .serializer(store.serializer()).nodeId(nodeId).claimTimeout(CLAIM_TIMEOUT).contentType(byte[].class).build();
        createTokenTable(tokens);
        FleetProjections projections = new FleetProjections(store, schema, settings.audit());
        Configurer configurer = DefaultConfigurer.defaultConfiguration(false)
                .configureSerializer(c -> store.serializer())
                .configureMessageSerializer(c -> store.serializer())
                .configureEventSerializer(c -> store.serializer())
                .configureTransactionManager(c -> store.transactions())
                // The engines append through other processes, so nothing tells this store of new events: it
                // polls. Axon's default waits a second after finding none, which alone would be a second's lag.
                // One processor reads it, so no shared producer: its cache would hold 10,000 steps (about 6 M
                // events, deserialized once read) and every young collection would copy them.
                .configureEventStore(c -> EmbeddedEventStore.builder().storageEngine(store.engine())
                        .fetchDelay(POLL.toMillis()).optimizeEventConsumption(false).build());
        configurer.eventProcessing(processing -> processing
                .registerTokenStore(view, c -> tokens)
                // A handler's exception fails its batch (rolled back, retried), never skips the message:
                // Axon's default would log it and go on, committing the token past a hole.
                .registerListenerInvocationErrorHandler(view, c -> PropagatingErrorHandler.instance())
                .registerPooledStreamingEventProcessor(view, Configuration::eventStore, (c, builder) -> builder
                        .initialSegmentCount(segments)
                        .batchSize(settings.batchSize())
                        .tokenClaimInterval(250)
                        .claimExtensionThreshold(1000)
                        .enableCoordinatorClaimExtension())
                .registerEventHandler(c -> projections)
                .assignHandlerInstancesMatching(view, handler -> handler == projections));
        this.axon = configurer.buildConfiguration();
        axon.start();
        this.balancer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "fleet-balancer-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        balancer.scheduleWithFixedDelay(this::heartbeatAndBalance, 0, HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts a node of view {@code view} (its processor's and tables' name) with {@code segments} segments. */
    public static FleetNode start(PostgresStore store, String view, String nodeId, int segments) {
        return start(store, view, nodeId, Settings.of(segments));
    }

    public static FleetNode start(PostgresStore store, String view, String nodeId, Settings settings) {
        return new FleetNode(store, view, nodeId, settings);
    }

    /** The segments this node processes now. */
    public Set<Integer> claimedSegments() {
        return new TreeSet<>(processor().processingStatus().keySet());
    }

    private PooledStreamingEventProcessor processor() {
        return axon.eventProcessingConfiguration()
                .eventProcessor(schema.view(), PooledStreamingEventProcessor.class).orElseThrow();
    }

    /**
     * Nodes started at once each find the token table missing; PostgreSQL's {@code CREATE TABLE IF NOT EXISTS}
     * fails one of two concurrent creates (on {@code pg_type}'s unique index), so they take turns.
     */
    private void createTokenTable(JdbcTokenStore tokens) {
        store.transactions().executeInTransaction(() -> {
            try (Connection c = store.transactions().getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot lock the token table's creation: " + e.getMessage(), e);
            }
            tokens.createSchema(PostgresTokenTableFactory.INSTANCE);
        });
    }

    private void createNodeTable() {
        store.transactions().executeInTransaction(() -> {
            try (Connection c = store.transactions().getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
                s.execute("CREATE TABLE IF NOT EXISTS " + schema.view()
                        + "_node (node_id varchar(255) PRIMARY KEY, heartbeat timestamptz NOT NULL)");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create the node table: " + e.getMessage(), e);
            }
        });
    }

    private void heartbeatAndBalance() {
        try (Connection c = store.dataSource().getConnection()) {
            try (PreparedStatement beat = c.prepareStatement("INSERT INTO " + schema.view() + "_node (node_id, heartbeat)"
                    + " VALUES (?, now()) ON CONFLICT (node_id) DO UPDATE SET heartbeat = now()")) {
                beat.setString(1, nodeId);
                beat.executeUpdate();
            }
            int live;
            try (PreparedStatement count = c.prepareStatement("SELECT count(*) FROM " + schema.view()
                    + "_node WHERE heartbeat > now() - make_interval(secs => ?)")) {
                count.setDouble(1, CLAIM_TIMEOUT.toMillis() / 1000.0);
                try (ResultSet r = count.executeQuery()) {
                    r.next();
                    live = Math.max(1, r.getInt(1));
                }
            }
            int share = (segments + live - 1) / live;
            Set<Integer> claimed = claimedSegments();
            if (claimed.size() > share) {
                // Released for longer than a claim interval, so that another node picks it up first.
                processor().releaseSegment(claimed.iterator().next(), 3, TimeUnit.SECONDS);
            }
        } catch (SQLException | RuntimeException e) {
            // A missed heartbeat only delays balancing; the processor goes on.
        }
    }

    @Override
    public void close() {
        balancer.shutdownNow();
        axon.shutdown();
        try (Connection c = store.dataSource().getConnection();
             PreparedStatement gone = c.prepareStatement("DELETE FROM " + schema.view() + "_node WHERE node_id = ?")) {
            gone.setString(1, nodeId);
            gone.executeUpdate();
        } catch (SQLException e) {
            // its heartbeat times out instead
        }
    }
}
