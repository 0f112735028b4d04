package io.kvledger.infrastructure.log;

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
import io.kvledger.domain.event.WindowBlocksFreed;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Each known event type read straight from its line's fields, once they are checked (by
 * {@link EventSchema} on a tree, or by {@link StreamedLines} as they are parsed): no copy of the line
 * and no data binding per line (which cost more than the parse itself). Both readers share these, so
 * a line gives the same event whichever read it.
 */
final class EventDecoders {

    private static final Map<String, Function<LineFields, EngineEvent>> BY_TYPE = new HashMap<>();

    static {
        define("EngineConfigured", n -> new EngineConfigured(n.i("gpuBlockSize"), n.i("blocksPerChunk"),
                n.i("workers"), n.i("cpuCapacityChunks"), ReleasePolicy.valueOf(n.s("releasePolicy")),
                n.isNull("maxOffloadTokens") ? null : n.i("maxOffloadTokens"), n.b("offloadPromptOnly"), null,
                n.optionalString("producer")));
        define("RequestRegistered", n -> new RequestRegistered(n.s("requestId"), n.i("promptLength"), n.ints("promptTokens"),
                n.optionalInt("maxOffloadTokens"), n.optionalInt("maxLoadTokens"), n.optionalBoolean("skipReadingPrefixCache")));
        define("PrefixMatched", n -> new PrefixMatched(n.s("requestId"), n.i("gpuHitTokens"), n.i("externalTokens"),
                n.groupInts("hitChunks")));
        define("PrefixMatchDeferred", n -> new PrefixMatchDeferred(n.s("requestId"), n.i("gpuHitTokens"),
                DeferReason.valueOf(n.s("reason"))));
        define("BlocksAllocated", n -> new BlocksAllocated(n.s("requestId"), n.groupInts("blockIds"), n.i("externalTokens")));
        define("LoadJobScheduled", n -> new LoadJobScheduled(n.l("jobId"), n.s("requestId"), n.groupInts("chunkIndices"),
                n.groupStrings("keys"), n.groupInts("blockIds")));
        define("TokensComputed", n -> new TokensComputed(n.s("requestId"), n.i("numComputedTokens")));
        define("TokensRejected", n -> new TokensRejected(n.s("requestId"), n.i("numComputedTokens")));
        define("TokensAppended", n -> new TokensAppended(n.s("requestId"), n.i("numTokens"), n.ints("tokens")));
        define("StoreJobScheduled", n -> new StoreJobScheduled(n.l("jobId"), n.s("requestId"), n.groupInts("chunkIndices"),
                n.groupStrings("keys"), n.groupInts("blockIds")));
        define("StoreDeferred", n -> new StoreDeferred(n.s("requestId"), n.groupInts("chunkIndices"),
                StoreDeferReason.valueOf(n.s("reason"))));
        define("StoreJobCompleted", n -> new StoreJobCompleted(n.l("jobId"), n.s("requestId"), n.b("success")));
        define("LoadJobCompleted", n -> new LoadJobCompleted(n.l("jobId"), n.s("requestId"), n.b("success")));
        define("TransferAcknowledged", n -> new TransferAcknowledged(n.l("jobId"), n.s("requestId"), n.b("success")));
        define("ChunksStored", n -> new ChunksStored(n.strings("keys")));
        define("ChunksEvicted", n -> new ChunksEvicted(n.strings("keys")));
        define("FlushRequired", n -> new FlushRequired(n.longs("jobIds"), n.ints("blockIds")));
        define("RequestPreempted", n -> new RequestPreempted(n.s("requestId")));
        define("RequestAborted", n -> new RequestAborted(n.s("requestId")));
        define("RequestFinished", n -> new RequestFinished(n.s("requestId"), FinishReason.valueOf(n.s("reason"))));
        define("BlocksReleased", n -> new BlocksReleased(n.s("requestId"), n.groupInts("blockIds")));
        define("WindowBlocksFreed", n -> new WindowBlocksFreed(n.s("requestId"), n.groupInts("blockIds")));
        define("CacheReset", n -> new CacheReset(n.l("staleBelowJobId")));
        define("CommandRejected", n -> new CommandRejected(n.l("line"), n.s("cmd"), RejectionCode.valueOf(n.s("code")),
                n.s("message"), n.id("requestId"), n.id("jobId")));
    }

    private EventDecoders() {
    }

    /** The event of a line of a known type whose schema holds; {@code null} for a type this version does not know. */
    static EngineEvent decode(String type, LineFields line) {
        Function<LineFields, EngineEvent> decoder = BY_TYPE.get(type);
        return decoder == null ? null : decoder.apply(line);
    }

    /** The decoder of a known type, or {@code null} for a type this version does not know: for a reader that looks it up once. */
    static Function<LineFields, EngineEvent> decoderOf(String type) {
        return BY_TYPE.get(type);
    }

    static Set<String> types() {
        return BY_TYPE.keySet();
    }

    private static void define(String type, Function<LineFields, EngineEvent> decoder) {
        BY_TYPE.put(type, decoder);
    }
}
