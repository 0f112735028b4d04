package io.kvledger.infrastructure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.group.PerGroup;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Meters per KV cache group, on Micrometer's Prometheus registry: example 12's engine (a full group and a
 * sliding group of window 4) holds, fences, stores and frees per group; an engine without groups has none
 * of these meters.
 */
class GroupMetersTest {

    private static final EngineConfig GROUPED = EngineConfig.DEFAULTS.withReleasePolicy(ReleasePolicy.DELAY_FREE)
            .withGpuBlockSize(4).withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 4)));

    @Test
    void heldFencedStoredAndFreedBlocksAreCountedInTheirGroup() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (KvLedger ledger = KvLedger.builder().config(GROUPED).listener(new MicrometerStepListener(registry, "e0")).build()) {
            ledger.step(List.of(new RegisterRequest("r", List.of(1, 2, 3, 4, 5, 6, 7, 8)), new MatchPrefix("r"),
                    new AllocateBlocks("r", PerGroup.of(List.of(1, 2, 3), List.of(11, 12, 13)), 0),
                    new ComputeTokens("r", 8), new AppendTokens("r", List.of(9, 10, 11, 12)), new ComputeTokens("r", 4)));

            assertEquals(3, gauge(registry, "kvledger.group.blocks.held", "0"));
            assertEquals(3, gauge(registry, "kvledger.group.blocks.held", "1"));
            assertEquals(3, gauge(registry, "kvledger.group.tier.chunks", "0"), "chunks 0..2 of group 0 being written");
            assertEquals(3, gauge(registry, "kvledger.group.tier.chunks", "1"));

            ledger.step(List.of(new FreeWindowBlocks("r", PerGroup.of(List.of(), List.of(11, 12)))));

            assertEquals(3, gauge(registry, "kvledger.group.blocks.held", "0"));
            assertEquals(1, gauge(registry, "kvledger.group.blocks.held", "1"), "11 and 12 freed: null entries");
            assertEquals(2, gauge(registry, "kvledger.group.fences", "1"), "the store of chunks 0, 1 still reads them");
            assertEquals(0, gauge(registry, "kvledger.group.fences", "0"));
            assertEquals(2, registry.get("kvledger.group.window_blocks_freed").tag("group", "1").counter().count());
            assertEquals(0, registry.get("kvledger.group.window_blocks_freed").tag("group", "0").counter().count());

            ledger.step(List.of(new FinishRequest("r", FinishReason.STOPPED)));
        }
        String scrape = registry.scrape();
        assertTrue(scrape.contains("# HELP kvledger_group_blocks_held GPU blocks the live requests' tables"), scrape);
        assertTrue(scrape.contains("kvledger_group_blocks_held{engine=\"e0\",group=\"1\",kind=\"SLIDING_WINDOW\"}"), scrape);
        assertTrue(scrape.contains("# HELP kvledger_group_window_blocks_freed_total "), scrape);
    }

    @Test
    void anEngineWithoutGroupsHasNoGroupMeter() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (KvLedger ledger = KvLedger.builder().config(EngineConfig.DEFAULTS.withGpuBlockSize(4))
                .listener(new MicrometerStepListener(registry, "e0")).build()) {
            ledger.step(List.of(new RegisterRequest("r", List.of(1, 2, 3, 4)), new MatchPrefix("r"),
                    new AllocateBlocks("r", List.of(9)), new ComputeTokens("r", 4)));
        }

        assertFalse(registry.scrape().contains("kvledger_group_"), registry.scrape());
    }

    private static double gauge(PrometheusMeterRegistry registry, String name, String group) {
        return registry.get(name).tag("group", group).gauge().value();
    }
}
