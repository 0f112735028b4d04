package io.kvledger.infrastructure.serve;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server's own meters, beside the engine's ({@code MicrometerStepListener}): sessions, clients
 * refused while another was connected, refused requests by code, and the time a step request takes
 * in the server (read, step, answer) and its answer's encoding alone.
 */
final class ServeMetrics {

    private final Counter sessions;
    private final Counter refusedClients;
    private final Map<ProtocolError.Code, Counter> errors = new EnumMap<>(ProtocolError.Code.class);
    private final Timer requests;
    private final Timer encoding;

    ServeMetrics(MeterRegistry registry) {
        this.sessions = Counter.builder("kvledger.serve.sessions").description("clients served").register(registry);
        this.refusedClients = Counter.builder("kvledger.serve.clients.refused")
                .description("clients refused because another was connected").register(registry);
        for (ProtocolError.Code code : ProtocolError.Code.values()) {
            errors.put(code, Counter.builder("kvledger.serve.errors").tag("code", code.name())
                    .description("requests answered with an error").register(registry));
        }
        this.requests = Timer.builder("kvledger.serve.request")
                .description("a step request in the server: read, step, answer encoded").register(registry);
        this.encoding = Timer.builder("kvledger.serve.encode").description("a step's answer encoded").register(registry);
    }

    /** Meters kept nowhere, for a server started without --metrics-port. */
    static ServeMetrics none() {
        return new ServeMetrics(new SimpleMeterRegistry());
    }

    void session() {
        sessions.increment();
    }

    void refusedClient() {
        refusedClients.increment();
    }

    void error(ProtocolError.Code code) {
        errors.get(code).increment();
    }

    void request(long start, long encodeStart, long end) {
        requests.record(end - start, TimeUnit.NANOSECONDS);
        encoding.record(end - encodeStart, TimeUnit.NANOSECONDS);
    }
}
