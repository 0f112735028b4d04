package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.infrastructure.log.StreamedEventArray;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.SimpleSerializedObject;
import org.junit.jupiter.api.Test;

/** A stored step read by the streaming path gives the events the tree path gives, and what it is not sure of goes to the tree. */
class StreamedStepReadTest {

    private final StableTypeSerializer serializer = StableTypeSerializer.create();

    @Test
    void randomStepsOfEveryTypeReadBackAsWrittenAndTheWritersStepsTakeTheStreamingPath() {
        for (long seed = 0; seed < 1_000; seed++) {
            Random random = new Random(seed);
            List<EngineEvent> events = new ArrayList<>();
            for (int i = random.nextInt(30); i > 0; i--) {
                events.add(StableTypeSerializerTest.EVERY_TYPE.get(random.nextInt(StableTypeSerializerTest.EVERY_TYPE.size())));
            }
            SerializedObject<byte[]> written = serializer.serialize(new StepEvents(events), byte[].class);
            assertEquals(new StepEvents(events), serializer.deserialize(written), "seed " + seed);
            List<EngineEvent> streamed = StreamedEventArray.read(written.getData());
            boolean sure = events.stream().noneMatch(e -> e instanceof EngineConfigured
                    || e instanceof CommandRejected r && (r.requestId() != null || r.jobId() != null));
            if (sure) {
                assertEquals(events, streamed, "seed " + seed + ": the streaming path read it");
            } else {
                assertNull(streamed, "seed " + seed + ": a configuration or a rejection with an id is the tree path's");
            }
        }
    }

    @Test
    void givenArraysOtherWritersMightWriteWhenReadThenTheTreePathReadsThemTheSame() {
        String[] foreign = {
            "[{\"requestId\":\"r\",\"type\":\"RequestAborted\"},{\"type\":\"TokensComputed\",\"requestId\":\"r\",\"numComputedTokens\":3}]",
            "[{\"type\":\"RequestAborted\",\"requestId\":\"r\",\"extra\":[1,{\"x\":2}]},{\"type\":\"TokensComputed\",\"numComputedTokens\":3,\"requestId\":\"r\"}]",
            "[{\"type\":\"FromTheFuture\",\"x\":1},{\"type\":\"RequestAborted\",\"requestId\":\"r\"},{\"type\":\"TokensComputed\",\"requestId\":\"r\",\"numComputedTokens\":3}]",
        };
        for (String json : foreign) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            Object read = serializer.deserialize(new SimpleSerializedObject<>(bytes, byte[].class, "StepEvents", "1"));
            List<EngineEvent> expected = new ArrayList<>();
            expected.add(new RequestAborted("r"));
            expected.add(new TokensComputed("r", 3));
            assertEquals(new StepEvents(expected), read, json);
        }
        assertNull(StreamedEventArray.read(foreign[0].getBytes(StandardCharsets.UTF_8)), "type not first");
        assertNull(StreamedEventArray.read(foreign[1].getBytes(StandardCharsets.UTF_8)), "an extra field");
        assertNull(StreamedEventArray.read(foreign[2].getBytes(StandardCharsets.UTF_8)), "an unknown type");
        assertNull(StreamedEventArray.read("[{\"type\":\"RequestAborted\"}]".getBytes(StandardCharsets.UTF_8)), "a missing field");
        assertNull(StreamedEventArray.read("[{\"type\":\"RequestAborted\",\"requestId\":\"r\"}] []".getBytes(StandardCharsets.UTF_8)),
                "something after the array");
        assertNotNull(StreamedEventArray.read("[]".getBytes(StandardCharsets.UTF_8)));
    }
}
