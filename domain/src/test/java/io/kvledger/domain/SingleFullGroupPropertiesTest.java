package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * Contract section 7.0: a config whose {@code groups} hold one {@code FULL} group without {@code eagle} is
 * today's engine. Over random command programs (those of {@link RecordedLogsTest}, their invariants checked
 * on every command), the events are exactly those of the same config without {@code groups}, apart from
 * {@code EngineConfigured}, which echoes the group.
 */
class SingleFullGroupPropertiesTest {

    @Property(tries = 400)
    void oneExplicitFullGroupGivesTodaysEvents(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        List<EngineEvent> today = RecordedLogsTest.run(seed);
        List<EngineEvent> grouped = RecordedLogsTest.run(seed,
                config -> config.withGroups(List.of(KvCacheGroup.full(config.gpuBlockSize()))));

        EngineConfigured echo = (EngineConfigured) grouped.get(0);
        assertEquals(List.of(KvCacheGroup.full(((EngineConfigured) today.get(0)).gpuBlockSize())), echo.groups());
        assertEquals(((EngineConfigured) today.get(0)).config(), echo.config().withGroups(null));
        assertNotEquals(today.get(0), echo, "the echo names the group");
        assertEquals(today.subList(1, today.size()), grouped.subList(1, grouped.size()), "program " + seed);
    }
}
