package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventTypes;
import io.kvledger.infrastructure.simulation.SimulationOptions;
import io.kvledger.infrastructure.simulation.Simulator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server's streaming encoding of every event equals the log line {@code kvledger run} writes for it,
 * field for field, over simulated workloads of several seeds (every event type the simulator makes).
 */
class EventEncoderTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void everyEventIsEncodedAsTheLogWritesIt(long seed) throws Exception {
        List<EngineEvent> events = new ArrayList<>();
        new Simulator(SimulationOptions.DEFAULTS.withRequests(80).withSeed(seed)).run(new Simulator.Listener() {
            @Override
            public void configured(EngineConfigured configured) {
                events.add(configured);
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> stepEvents) {
                events.addAll(stepEvents);
            }
        });
        AnswerWriter answers = new AnswerWriter();
        int chunk = 97;
        Set<String> types = new HashSet<>();
        for (int from = 0; from < events.size(); from += chunk) {
            List<EngineEvent> step = events.subList(from, Math.min(events.size(), from + chunk));
            answers.step(1, from + 1, step);
            JsonNode encoded = EventJson.mapper().readTree(answers.text()).get("events");
            assertEquals(step.size(), encoded.size());
            for (int i = 0; i < step.size(); i++) {
                assertEquals(EventJson.mapper().readTree(EventJson.toLine(from + i + 1, step.get(i))), encoded.get(i), "event " + (from + i + 1));
                types.add(EventTypes.nameOf(step.get(i)));
            }
        }
        assertTrue(types.size() >= 15, "the workload covers many event types: " + types);
    }
}
