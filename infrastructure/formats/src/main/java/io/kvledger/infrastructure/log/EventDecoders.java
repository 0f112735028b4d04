package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Each known event type read straight from its line's fields, once {@link EventSchema} has checked
 * them: no copy of the line and no data binding per line (which cost more than the parse itself).
 */
final class EventDecoders {

    private static final ObjectMapper LENIENT = JsonMapper.builder().build();
    private static final Map<String, Function<JsonNode, EngineEvent>> BY_TYPE = new HashMap<>();

    static {
        define("EngineConfigured", n -> new EngineConfigured(i(n, "gpuBlockSize"), i(n, "blocksPerChunk"),
                i(n, "workers"), i(n, "cpuCapacityChunks"), ReleasePolicy.valueOf(s(n, "releasePolicy")),
                n.get("maxOffloadTokens").isNull() ? null : i(n, "maxOffloadTokens"), n.get("offloadPromptOnly").booleanValue()));
        define("RequestRegistered", n -> new RequestRegistered(s(n, "requestId"), i(n, "promptLength"), ints(n, "promptTokens")));
        define("PrefixMatched", n -> new PrefixMatched(s(n, "requestId"), i(n, "gpuHitTokens"), i(n, "externalTokens"),
                ints(n, "hitChunks")));
        define("PrefixMatchDeferred", n -> new PrefixMatchDeferred(s(n, "requestId"), i(n, "gpuHitTokens"),
                DeferReason.valueOf(s(n, "reason"))));
        define("BlocksAllocated", n -> new BlocksAllocated(s(n, "requestId"), ints(n, "blockIds"), i(n, "externalTokens")));
        define("LoadJobScheduled", n -> new LoadJobScheduled(l(n, "jobId"), s(n, "requestId"), ints(n, "chunkIndices"),
                strings(n, "keys"), ints(n, "blockIds")));
        define("TokensComputed", n -> new TokensComputed(s(n, "requestId"), i(n, "numComputedTokens")));
        define("TokensRejected", n -> new TokensRejected(s(n, "requestId"), i(n, "numComputedTokens")));
        define("TokensAppended", n -> new TokensAppended(s(n, "requestId"), i(n, "numTokens"), ints(n, "tokens")));
        define("StoreJobScheduled", n -> new StoreJobScheduled(l(n, "jobId"), s(n, "requestId"), ints(n, "chunkIndices"),
                strings(n, "keys"), ints(n, "blockIds")));
        define("StoreDeferred", n -> new StoreDeferred(s(n, "requestId"), ints(n, "chunkIndices"),
                StoreDeferReason.valueOf(s(n, "reason"))));
        define("StoreJobCompleted", n -> new StoreJobCompleted(l(n, "jobId"), s(n, "requestId"), b(n, "success")));
        define("LoadJobCompleted", n -> new LoadJobCompleted(l(n, "jobId"), s(n, "requestId"), b(n, "success")));
        define("TransferAcknowledged", n -> new TransferAcknowledged(l(n, "jobId"), s(n, "requestId"), b(n, "success")));
        define("ChunksStored", n -> new ChunksStored(strings(n, "keys")));
        define("ChunksEvicted", n -> new ChunksEvicted(strings(n, "keys")));
        define("FlushRequired", n -> new FlushRequired(longs(n, "jobIds"), ints(n, "blockIds")));
        define("RequestPreempted", n -> new RequestPreempted(s(n, "requestId")));
        define("RequestAborted", n -> new RequestAborted(s(n, "requestId")));
        define("RequestFinished", n -> new RequestFinished(s(n, "requestId"), FinishReason.valueOf(s(n, "reason"))));
        define("BlocksReleased", n -> new BlocksReleased(s(n, "requestId"), ints(n, "blockIds")));
        define("CacheReset", n -> new CacheReset(l(n, "staleBelowJobId")));
        define("CommandRejected", n -> new CommandRejected(l(n, "line"), s(n, "cmd"), RejectionCode.valueOf(s(n, "code")),
                s(n, "message"), id(n.get("requestId")), id(n.get("jobId"))));
    }

    private EventDecoders() {
    }

    /** The event of a line of a known type whose schema holds; {@code null} for a type this version does not know. */
    static EngineEvent decode(String type, JsonNode line) {
        Function<JsonNode, EngineEvent> decoder = BY_TYPE.get(type);
        return decoder == null ? null : decoder.apply(line);
    }

    static Set<String> types() {
        return BY_TYPE.keySet();
    }

    private static void define(String type, Function<JsonNode, EngineEvent> decoder) {
        BY_TYPE.put(type, decoder);
    }

    private static int i(JsonNode line, String field) {
        return line.get(field).intValue();
    }

    private static long l(JsonNode line, String field) {
        return line.get(field).longValue();
    }

    private static boolean b(JsonNode line, String field) {
        return line.get(field).booleanValue();
    }

    private static String s(JsonNode line, String field) {
        return line.get(field).textValue();
    }

    private static List<Integer> ints(JsonNode line, String field) {
        JsonNode array = line.get(field);
        List<Integer> values = new ArrayList<>(array.size());
        for (JsonNode value : array) {
            values.add(value.intValue());
        }
        return values;
    }

    private static List<Long> longs(JsonNode line, String field) {
        JsonNode array = line.get(field);
        List<Long> values = new ArrayList<>(array.size());
        for (JsonNode value : array) {
            values.add(value.longValue());
        }
        return values;
    }

    private static List<String> strings(JsonNode line, String field) {
        JsonNode array = line.get(field);
        List<String> values = new ArrayList<>(array.size());
        for (JsonNode value : array) {
            values.add(value.textValue());
        }
        return values;
    }

    /** An id as given, the way data binding reads an {@code Object}: a string, an integer, or whatever it was. */
    private static Object id(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isInt()) {
            return value.intValue();
        }
        if (value.isLong()) {
            return value.longValue();
        }
        try {
            return LENIENT.treeToValue(value, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }
}
