package io.kvledger.infrastructure.serve;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.StepListener;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.infrastructure.serve.ProtocolError.Code;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one engine a server holds. It is opened by the first hello (with that hello's config, or the
 * defaults) unless the server was started with a config or on a store that already holds an engine,
 * which then fixes it. Steps and shutdown take one lock, so a shutdown waits for the step in progress
 * and a step never runs on a closed ledger.
 */
final class ServedEngine implements AutoCloseable {

    private final ReentrantLock lock = new ReentrantLock();
    private final ServedStore store;
    private final List<StepListener> listeners;
    private volatile EngineConfig openConfig;
    private KvLedger ledger;
    private long lastSeq;
    private long steps;
    private long commandsReceived;
    private boolean closed;
    private long lastStepFirstSeq;
    private volatile boolean stopping;

    /**
     * @param store     the durable store, or {@code null} for an in-memory engine; owned from here on
     * @param config    the config fixed at start, if any
     * @param listeners told about every step (metrics)
     */
    ServedEngine(ServedStore store, Optional<EngineConfig> config, List<StepListener> listeners) {
        this.store = store;
        this.listeners = List.copyOf(listeners);
        if (config.isPresent() || (store != null && store.holdsEngine())) {
            open(config);
        }
    }

    /** Opens the engine for a hello if no engine is open yet; refuses a hello whose config differs. */
    AnswerWriter.HelloAnswer hello(Optional<EngineConfig> config, String server) throws ProtocolException {
        lock.lock();
        try {
            checkOpen();
            if (ledger == null) {
                open(config);
            } else if (config.isPresent() && !config.get().equals(ledger.state().config())) {
                throw new ProtocolException(Code.CONFIG_MISMATCH, "this server's engine has config "
                        + ledger.state().config() + ", the hello asks for " + config.get()
                        + " (one engine per server: start another server for another config)");
            }
            return new AnswerWriter.HelloAnswer(server, ledger.engineId(), ledger.resumed(), lastSeq, steps,
                    ledger.configured());
        } finally {
            lock.unlock();
        }
    }

    /** Executes one step; {@code answer} encodes it while the lock is held, so seqs are the step's own. */
    void step(Request.Step step, StepAnswer answer) throws ProtocolException, IOException {
        lock.lock();
        try {
            checkOpen();
            if (ledger == null) {
                throw new ProtocolException(Code.HELLO_REQUIRED, "the engine is not open: send a hello first");
            }
            List<EngineCommand> commands = step.commands();
            List<StepEntry> entries = new ArrayList<>(commands.size());
            for (int i = 0; i < commands.size(); i++) {
                long line = step.lines() == null ? commandsReceived + i + 1 : step.lines()[i];
                entries.add(new StepEntry(line, commands.get(i)));
            }
            StepResult result;
            long start = System.nanoTime();
            try {
                result = ledger.stepEntries(entries);
            } catch (RuntimeException e) {
                throw new ProtocolException(Code.INTERNAL, "the engine failed deciding the step, which changed nothing: "
                        + e.getMessage());
            }
            commandsReceived += commands.size();
            long firstSeq = lastSeq + 1;
            lastStepFirstSeq = firstSeq;
            lastSeq += result.events().size();
            steps++;
            answer.accept(steps, firstSeq, result, System.nanoTime() - start);
        } finally {
            lock.unlock();
        }
    }

    long lastSeq() {
        lock.lock();
        try {
            return lastSeq;
        } finally {
            lock.unlock();
        }
    }

    long steps() {
        lock.lock();
        try {
            return steps;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the step in progress, then closes the ledger, which flushes and unlocks the store. Idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (ledger != null) {
                ledger.close();
            } else if (store != null) {
                store.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** From now on a hello or step not yet begun is answered {@code SHUTTING_DOWN}; the one in progress finishes. */
    void beginShutdown() {
        stopping = true;
    }

    /** The first seq of the last step that ran (0 before any). */
    long lastStepFirstSeq() {
        lock.lock();
        try {
            return lastStepFirstSeq;
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen() throws ProtocolException {
        if (closed || stopping) {
            throw new ProtocolException(Code.SHUTTING_DOWN, "the server is stopping: this request did not run");
        }
    }

    private void open(Optional<EngineConfig> config) {
        KvLedger.Builder builder = store == null ? KvLedger.builder().store(withoutStore()) : store.builder();
        config.ifPresent(builder::config);
        listeners.forEach(builder::listener);
        ledger = builder.build();
        lastSeq = store == null ? 1 : store.lastSeq();
        openConfig = ledger.state().config();
    }

    /**
     * Where a server without {@code --store} keeps its events: nowhere. Nothing reads them back (the answers
     * carry them); kept in memory they grew the heap by every step's events (about 40 KB a 256-request step),
     * which each young collection copied on into the old generation, longer every time.
     */
    static LedgerStore withoutStore() {
        return LedgerStore.discarding();
    }

    /**
     * The open engine's config, or {@code null} before the first hello opened one: its KV cache groups decide
     * how a step's per-group fields read (contract 7.2), as the config line does for {@code kvledger run}.
     */
    EngineConfig config() {
        return openConfig;
    }

    @FunctionalInterface
    interface StepAnswer {
        void accept(long stepNumber, long firstSeq, StepResult result, long stepNanos) throws IOException;
    }
}
