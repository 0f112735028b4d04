package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.axon.AxonEngineConfiguration;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.infrastructure.json.EventTypes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.axonframework.messaging.MetaData;
import org.axonframework.serialization.SerializationException;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.junit.jupiter.api.Test;

class StableTypeSerializerTest {

    /** One event of every type the log knows, with the fields that are easy to get wrong (nulls, enums, longs). */
    static final List<EngineEvent> EVERY_TYPE = List.of(
            EngineConfigured.of(EngineConfig.DEFAULTS.withMaxOffloadTokens(64)),
            EngineConfigured.of(new EngineConfig(16, 2, 2, 8, ReleasePolicy.DELAY_FREE, null, true)),
            new RequestRegistered("r", 3, List.of(1, 2, 3)),
            new PrefixMatched("r", 16, 32, List.of(1, 2)),
            new PrefixMatchDeferred("r", 0, DeferReason.CHUNK_BEING_LOADED),
            new BlocksAllocated("r", List.of(4, 5), 32),
            new LoadJobScheduled(3, "r", List.of(1, 2), List.of("k1", "k2"), List.of(4, 5)),
            new TokensComputed("r", 48),
            new TokensRejected("r", 40),
            new TokensAppended("r", 49, List.of(7)),
            new StoreJobScheduled(4, "r", List.of(0), List.of("k0"), List.of(4)),
            new StoreDeferred("r", List.of(3), StoreDeferReason.TIER_FULL),
            new StoreJobCompleted(4, "r", false),
            new LoadJobCompleted(3, "r", true),
            new TransferAcknowledged(3, "r", true),
            new ChunksStored(List.of("k0")),
            new ChunksEvicted(List.of()),
            new FlushRequired(List.of(3L, 4L), List.of(4, 5)),
            new RequestPreempted("r"),
            new RequestAborted("r"),
            new RequestFinished("r", FinishReason.STOPPED),
            new BlocksReleased("r", List.of(5, 4)),
            new WindowBlocksFreed("r", PerGroup.single(List.of(3))),
            new CacheReset(5_000_000_000L),
            new CommandRejected(9, "CompleteTransfer", RejectionCode.UNKNOWN_JOB, "job 7 was never scheduled", null, 7L),
            new CommandRejected(10, "AbortRequest", RejectionCode.INVALID_ARGUMENT, "requestId must be a string", null, null));

    private final Serializer serializer = StableTypeSerializer.create();

    @Test
    void theSamplesCoverEveryTypeOfTheLog() {
        Set<String> covered = new TreeSet<>();
        EVERY_TYPE.forEach(event -> covered.add(EventTypes.nameOf(event)));
        assertEquals(new TreeSet<>(EventTypes.names()), covered);
    }

    @Test
    void aStepOfEveryTypeRoundTripsAsBytesAndAsText() {
        StepEvents step = new StepEvents(EVERY_TYPE);
        for (Class<?> representation : List.of(byte[].class, String.class)) {
            SerializedObject<?> written = serializer.serialize(step, representation);
            assertEquals(StableTypeSerializer.STEP_EVENTS, written.getType().getName());
            assertEquals(StepEvents.class, serializer.classForType(written.getType()));
            assertEquals(step, serializer.deserialize(written));
        }
    }

    @Test
    void eachEventRoundTripsUnderItsStableTypeName() {
        for (EngineEvent event : EVERY_TYPE) {
            SerializedObject<byte[]> written = serializer.serialize(event, byte[].class);
            assertEquals(EventTypes.nameOf(event), written.getType().getName());
            assertEquals(event.getClass(), serializer.classForType(written.getType()));
            assertEquals(event, serializer.deserialize(written), EventTypes.nameOf(event));
        }
    }

    @Test
    void jacksonsDefaultSerializerCannotReadAStepBack() {
        Serializer old = AxonEngineConfiguration.serializer();
        SerializedObject<byte[]> written = old.serialize(new StepEvents(EVERY_TYPE), byte[].class);
        assertThrows(RuntimeException.class, () -> old.deserialize(written));
    }

    @Test
    void aStepIsStoredAsTheLogsLinesWithoutSeq() {
        String json = new String(serializer.serialize(StepEvents.of(new RequestAborted("r"), new CacheReset(3)),
                byte[].class).getData(), StandardCharsets.UTF_8);
        assertEquals("[{\"type\":\"RequestAborted\",\"requestId\":\"r\"},{\"type\":\"CacheReset\",\"staleBelowJobId\":3}]", json);
    }

    @Test
    void anOlderRevisionIsUpcastAndAnUnknownTypeInAStepIsSkipped() {
        byte[] revision0 = ("[{\"type\":\"PrefixMatched\",\"requestId\":\"r\",\"gpuHitTokens\":0,\"externalTokens\":16,\"hits\":[0]},"
                + "{\"type\":\"FromTheFuture\",\"x\":1}]").getBytes(StandardCharsets.UTF_8);
        Object read = serializer.deserialize(new SimpleSerializedObject<>(revision0, byte[].class, "StepEvents", "0"));
        assertEquals(StepEvents.of(new PrefixMatched("r", 0, 16, List.of(0))), read);
    }

    @Test
    void aStoredEventMissingAFieldIsNamed() {
        byte[] bad = "[{\"type\":\"RequestAborted\"}]".getBytes(StandardCharsets.UTF_8);
        SerializationException e = assertThrows(SerializationException.class,
                () -> serializer.deserialize(new SimpleSerializedObject<>(bad, byte[].class, "StepEvents", "1")));
        assertTrue(e.getMessage().contains("RequestAborted.requestId is missing"), e.getMessage());
    }

    @Test
    void metadataAndOtherTypesGoToJackson() {
        MetaData metaData = MetaData.with("engine", "e1").and("n", 3);
        assertEquals(metaData, serializer.deserialize(serializer.serialize(metaData, byte[].class)));
    }
}
