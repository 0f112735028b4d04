package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.EngineState;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Snapshots of grouped state (contract section 7) round-trip; a single-group state is encoded as before groups. */
class GroupedStateCodecTest {

    private static EngineState run(EngineConfig config, List<EngineCommand> commands) {
        EngineState state = EngineState.initial(config);
        for (EngineCommand command : commands) {
            Decision decision = Decider.decide(state, command);
            assertTrue(decision instanceof Decision.Accepted, command + " -> " + decision);
            for (io.kvledger.domain.event.EngineEvent event : decision.events(0, command)) {
                state = io.kvledger.domain.EngineFold.evolve(state, event);
            }
        }
        return state;
    }

    private static List<EngineCommand> program(boolean grouped) {
        List<Integer> prompt = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
        if (!grouped) {
            return List.of(new RegisterRequest("r", prompt), new AllocateBlocks("r", List.of(1, 2, 3)),
                    new ComputeTokens("r", 12), new RegisterRequest("q", prompt), new MatchPrefix("q", 0));
        }
        return List.of(new RegisterRequest("r", prompt),
                new AllocateBlocks("r", PerGroup.of(List.of(1, 2, 3), List.of(11, 12, 13)), 0),
                new ComputeTokens("r", 12), new FreeWindowBlocks("r", PerGroup.of(List.of(), List.of(11))),
                new RegisterRequest("q", prompt), new MatchPrefix("q", 0),
                new AllocateBlocks("q", PerGroup.of(List.of(21), List.of(31)), 0));
    }

    @Test
    void aGroupedStateRoundTripsWithItsNullEntriesCursorsAndHeldBlocks() throws Exception {
        EngineConfig config = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 4)))
                .withReleasePolicy(ReleasePolicy.DELAY_FREE);
        EngineState state = run(config, program(true));
        assertNotNull(state.heldRequest("r").groups());

        EngineState decoded = StateCodec.decode(StateCodec.encode(state));

        assertEquals(state, decoded);
        assertEquals(Arrays.asList(null, 12, 13), decoded.heldRequest("r").table(1).asJava());
        assertEquals(1, decoded.windowHolders(12));
        assertFalse(decoded.fences().isEmpty(), "the freed block 11 is fenced by the store still reading it");
    }

    @Test
    void aSingleGroupStateIsEncodedWithoutAnyGroupedField() throws Exception {
        EngineState state = run(EngineConfig.DEFAULTS.withGpuBlockSize(4), program(false));

        String json = new String(StateCodec.encode(state), StandardCharsets.UTF_8);

        for (String field : List.of("\"groups\"", "\"windowHolds\"", "\"groupCursorsBefore\"")) {
            assertFalse(json.contains(field), field + " in " + json);
        }
        assertEquals(state, StateCodec.decode(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void oneExplicitFullGroupIsEncodedWithItsGroupOnlyInTheConfig() throws Exception {
        EngineConfig config = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4)));
        EngineState state = run(config, program(false));

        String json = new String(StateCodec.encode(state), StandardCharsets.UTF_8);

        assertEquals(1, json.split("\"groups\"", -1).length - 1, json);
        assertEquals(state, StateCodec.decode(json.getBytes(StandardCharsets.UTF_8)));
    }
}
