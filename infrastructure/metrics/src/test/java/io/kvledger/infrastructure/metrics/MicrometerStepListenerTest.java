package io.kvledger.infrastructure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class MicrometerStepListenerTest {

    @Test
    void countsStepsEventsRejectionsAndGaugesTheState() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (KvLedger ledger = KvLedger.builder().config(EngineConfig.DEFAULTS.withGpuBlockSize(4))
                .listener(new MicrometerStepListener(registry, "e0")).build()) {
            ledger.step(List.of(new RegisterRequest("r", List.of(1, 2, 3, 4)), new MatchPrefix("r"),
                    new AllocateBlocks("r", List.of(9))));
            ledger.step(List.of(new ComputeTokens("r", 4), new ComputeTokens("ghost", 1)));
        }

        assertEquals(2, registry.get("kvledger.step").timer().count());
        assertEquals(5, registry.get("kvledger.commands").counter().count());
        assertEquals(1, registry.get("kvledger.events").tag("type", "StoreJobScheduled").counter().count());
        assertEquals(1, registry.get("kvledger.rejections").tag("code", "UNKNOWN_REQUEST").counter().count());
        assertEquals(0, registry.get("kvledger.rejections").tag("code", "STALE_JOB").counter().count());
        assertEquals(1, registry.get("kvledger.jobs.in_flight").gauge().value());
        assertEquals(1, registry.get("kvledger.tier.chunks").gauge().value());
        assertEquals(1, registry.get("kvledger.requests.live").gauge().value());
    }
}
