package io.kvledger.infrastructure.metrics;

import io.kvledger.application.StepListener;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.json.EventTypes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Publishes an engine's steps to Micrometer: step latency, commands, events by type, rejections by
 * code, and gauges of live requests, jobs in flight, fences and CPU tier occupancy; a grouped engine adds
 * meters per KV cache group ({@link GroupMeters}). Meters are looked
 * up once and kept, so a step costs a few counter increments.
 *
 * <pre>{@code
 * KvLedger.builder().listener(new MicrometerStepListener(registry, "engine-0")).build();
 * }</pre>
 */
public final class MicrometerStepListener implements StepListener {

    private final MeterRegistry registry;
    private final String engine;
    private final Timer steps;
    private final Counter commands;
    private final Map<Class<?>, Counter> eventsByType = new ConcurrentHashMap<>();
    private final Map<RejectionCode, Counter> rejectionsByCode = new EnumMap<>(RejectionCode.class);
    /** The sizes after the last step, copied out of its state on the stepping thread (the state is a view valid until the next step). */
    private volatile Sizes last;
    private final GroupMeters groupMeters;

    private record Sizes(int requests, int jobs, int fences, int tierChunks, int tierCapacity) {
        static Sizes of(EngineState state) {
            return new Sizes(state.requests().size(), state.jobs().size(), state.fences().size(), state.tier().size(),
                    state.tier().capacity());
        }
    }

    public MicrometerStepListener(MeterRegistry registry, String engine) {
        this.registry = registry;
        this.engine = engine;
        // Histogram buckets let Prometheus compute percentiles across engines and time (the Grafana
        // dashboard's p50/p99/p99.9); the range covers a step's microseconds to a slow second.
        this.steps = Timer.builder("kvledger.step").description("time a host spends in one scheduler step")
                .tag("engine", engine).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(1_000)).maximumExpectedValue(Duration.ofSeconds(1))
                .register(registry);
        this.commands = Counter.builder("kvledger.commands").description("commands the engine decided")
                .tag("engine", engine).register(registry);
        for (RejectionCode code : RejectionCode.values()) {
            rejectionsByCode.put(code, Counter.builder("kvledger.rejections")
                    .description("commands the engine refused (CommandRejected), by code").tag("engine", engine)
                    .tag("code", code.name()).register(registry));
        }
        gauge("kvledger.requests.live", "requests the engine holds, after its last step", Sizes::requests);
        gauge("kvledger.jobs.in_flight", "store and load jobs scheduled and not completed", Sizes::jobs);
        gauge("kvledger.fences", "fences: blocks a pending store still reads, flushed before reuse",
                Sizes::fences);
        gauge("kvledger.tier.chunks", "chunks the CPU tier holds", Sizes::tierChunks);
        gauge("kvledger.tier.capacity", "chunks the CPU tier can hold", Sizes::tierCapacity);
        this.groupMeters = new GroupMeters(registry, engine);
    }

    @Override
    public void onStep(int commandCount, StepResult result, long elapsedNanos) {
        steps.record(elapsedNanos, TimeUnit.NANOSECONDS);
        commands.increment(commandCount);
        for (EngineEvent event : result.events()) {
            eventsByType.computeIfAbsent(event.getClass(), type -> Counter.builder("kvledger.events")
                    .description("events the engine recorded, by type").tag("engine", engine).tag("type", EventTypes.nameOf(event)).register(registry)).increment();
            if (event instanceof CommandRejected rejected) {
                rejectionsByCode.get(rejected.code()).increment();
            }
        }
        last = Sizes.of(result.state());
        groupMeters.onStep(result.events(), result.state());
    }

    private void gauge(String name, String help, java.util.function.ToDoubleFunction<Sizes> value) {
        Gauge.builder(name, this, self -> self.last == null ? 0 : value.applyAsDouble(self.last))
                .description(help).tag("engine", engine).register(registry);
    }
}
