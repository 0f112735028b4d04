package io.kvledger.infrastructure.log;

import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.infrastructure.json.EventTypes;
import java.util.List;

/**
 * Lays the lines of the common events out straight into bytes: {@code {"seq": N, "type": "T", "f": V, ...}} plus
 * the newline, the bytes Jackson's serializer of the event's record writes in the contract's spacing
 * ({@code EventLineFields}), without a generator, a serializer or a reflective accessor per field. A simulation
 * writes a million lines in a second or two, and through Jackson each cost about 1 µs of C1's code, a quarter of
 * the checking thread. What it does not lay out itself it declines, appending nothing, and the caller writes that
 * line through Jackson: the configuration, a string JSON escapes or that is not ASCII, a per-group entry or a
 * rejection's id that is not an integer, a string or null. {@code EventLineBytesTest} holds every line to Jackson's bytes.
 * This class says which fields each type's line holds, in which order; {@link JsonBytes} writes their values.
 * Not thread-safe.
 */
final class EventLineBytes {

    private static final byte[] SEQ = JsonBytes.ascii("{\"seq\": ");
    private static final byte[] REQUEST_ID = field("requestId");
    private static final byte[] JOB_ID = field("jobId");
    private static final byte[] BLOCK_IDS = field("blockIds");
    private static final byte[] CHUNK_INDICES = field("chunkIndices");
    private static final byte[] KEYS = field("keys");
    private static final byte[] SUCCESS = field("success");
    private static final byte[] NUM_COMPUTED_TOKENS = field("numComputedTokens");
    private static final byte[] NUM_TOKENS = field("numTokens");
    private static final byte[] TOKENS = field("tokens");
    private static final byte[] EXTERNAL_TOKENS = field("externalTokens");
    private static final byte[] GPU_HIT_TOKENS = field("gpuHitTokens");
    private static final byte[] HIT_CHUNKS = field("hitChunks");
    private static final byte[] REASON = field("reason");
    private static final byte[] PROMPT_LENGTH = field("promptLength");
    private static final byte[] PROMPT_TOKENS = field("promptTokens");
    private static final byte[] MAX_OFFLOAD_TOKENS = field("maxOffloadTokens");
    private static final byte[] MAX_LOAD_TOKENS = field("maxLoadTokens");
    private static final byte[] SKIP_READING_PREFIX_CACHE = field("skipReadingPrefixCache");
    private static final byte[] JOB_IDS = field("jobIds");
    private static final byte[] STALE_BELOW_JOB_ID = field("staleBelowJobId");
    private static final byte[] LINE = field("line");
    private static final byte[] CMD = field("cmd");
    private static final byte[] CODE = field("code");
    private static final byte[] MESSAGE = field("message");

    private static final byte[] TOKENS_COMPUTED = type(TokensComputed.class);
    private static final byte[] TOKENS_APPENDED = type(TokensAppended.class);
    private static final byte[] TOKENS_REJECTED = type(TokensRejected.class);
    private static final byte[] BLOCKS_ALLOCATED = type(BlocksAllocated.class);
    private static final byte[] TRANSFER_ACKNOWLEDGED = type(TransferAcknowledged.class);
    private static final byte[] STORE_JOB_SCHEDULED = type(StoreJobScheduled.class);
    private static final byte[] STORE_JOB_COMPLETED = type(StoreJobCompleted.class);
    private static final byte[] CHUNKS_STORED = type(ChunksStored.class);
    private static final byte[] CHUNKS_EVICTED = type(ChunksEvicted.class);
    private static final byte[] PREFIX_MATCHED = type(PrefixMatched.class);
    private static final byte[] BLOCKS_RELEASED = type(BlocksReleased.class);
    private static final byte[] REQUEST_REGISTERED = type(RequestRegistered.class);
    private static final byte[] REQUEST_FINISHED = type(RequestFinished.class);
    private static final byte[] FLUSH_REQUIRED = type(FlushRequired.class);
    private static final byte[] LOAD_JOB_SCHEDULED = type(LoadJobScheduled.class);
    private static final byte[] LOAD_JOB_COMPLETED = type(LoadJobCompleted.class);
    private static final byte[] PREFIX_MATCH_DEFERRED = type(PrefixMatchDeferred.class);
    private static final byte[] REQUEST_PREEMPTED = type(RequestPreempted.class);
    private static final byte[] REQUEST_ABORTED = type(RequestAborted.class);
    private static final byte[] WINDOW_BLOCKS_FREED = type(WindowBlocksFreed.class);
    private static final byte[] STORE_DEFERRED = type(StoreDeferred.class);
    private static final byte[] CACHE_RESET = type(CacheReset.class);
    private static final byte[] COMMAND_REJECTED = type(CommandRejected.class);

    private final JsonBytes out;

    EventLineBytes(int capacity) {
        out = new JsonBytes(capacity);
    }

    /** The lines appended since the last {@link #clear}, in {@code [0, size())}. */
    byte[] bytes() {
        return out.bytes();
    }

    int size() {
        return out.size();
    }

    void clear() {
        out.clear();
    }

    /** Appends bytes encoded elsewhere (a line the caller wrote through Jackson). */
    void append(byte[] line, int offset, int length) {
        out.append(line, offset, length);
    }

    /**
     * Appends the event's line and its newline; {@code false}, with nothing appended, for a line this class does
     * not lay out (the caller writes it through Jackson).
     */
    boolean append(long seq, EngineEvent event) {
        int start = out.size();
        if (fields(seq, event)) {
            out.put((byte) '}');
            out.put((byte) '\n');
            return true;
        }
        out.truncate(start);
        return false;
    }

    /** The line's opening and fields, in the order of the event's record; the most frequent types first. */
    private boolean fields(long seq, EngineEvent event) {
        if (event instanceof TokensComputed e) {
            open(seq, TOKENS_COMPUTED);
            return string(REQUEST_ID, e.requestId()) && number(NUM_COMPUTED_TOKENS, e.numComputedTokens());
        } else if (event instanceof TokensAppended e) {
            open(seq, TOKENS_APPENDED);
            return string(REQUEST_ID, e.requestId()) && number(NUM_TOKENS, e.numTokens()) && ints(TOKENS, e.tokens());
        } else if (event instanceof BlocksAllocated e) {
            open(seq, BLOCKS_ALLOCATED);
            return string(REQUEST_ID, e.requestId()) && perGroup(BLOCK_IDS, e.blockIds())
                    && number(EXTERNAL_TOKENS, e.externalTokens());
        } else if (event instanceof TransferAcknowledged e) {
            open(seq, TRANSFER_ACKNOWLEDGED);
            return number(JOB_ID, e.jobId()) && string(REQUEST_ID, e.requestId()) && bool(SUCCESS, e.success());
        } else if (event instanceof StoreJobScheduled e) {
            open(seq, STORE_JOB_SCHEDULED);
            return number(JOB_ID, e.jobId()) && string(REQUEST_ID, e.requestId()) && perGroup(CHUNK_INDICES, e.chunkIndices())
                    && perGroup(KEYS, e.keys()) && perGroup(BLOCK_IDS, e.blockIds());
        } else if (event instanceof StoreJobCompleted e) {
            open(seq, STORE_JOB_COMPLETED);
            return number(JOB_ID, e.jobId()) && string(REQUEST_ID, e.requestId()) && bool(SUCCESS, e.success());
        } else if (event instanceof ChunksStored e) {
            open(seq, CHUNKS_STORED);
            return strings(KEYS, e.keys());
        } else if (event instanceof ChunksEvicted e) {
            open(seq, CHUNKS_EVICTED);
            return strings(KEYS, e.keys());
        } else if (event instanceof TokensRejected e) {
            open(seq, TOKENS_REJECTED);
            return string(REQUEST_ID, e.requestId()) && number(NUM_COMPUTED_TOKENS, e.numComputedTokens());
        } else if (event instanceof PrefixMatched e) {
            open(seq, PREFIX_MATCHED);
            return string(REQUEST_ID, e.requestId()) && number(GPU_HIT_TOKENS, e.gpuHitTokens())
                    && number(EXTERNAL_TOKENS, e.externalTokens()) && perGroup(HIT_CHUNKS, e.hitChunks());
        } else if (event instanceof BlocksReleased e) {
            open(seq, BLOCKS_RELEASED);
            return string(REQUEST_ID, e.requestId()) && perGroup(BLOCK_IDS, e.blockIds());
        } else if (event instanceof RequestRegistered e) {
            open(seq, REQUEST_REGISTERED);
            // The controls (contract 9.1) only when given, as the record's mix-in leaves out a null.
            return string(REQUEST_ID, e.requestId()) && number(PROMPT_LENGTH, e.promptLength())
                    && ints(PROMPT_TOKENS, e.promptTokens())
                    && (e.maxOffloadTokens() == null || number(MAX_OFFLOAD_TOKENS, e.maxOffloadTokens()))
                    && (e.maxLoadTokens() == null || number(MAX_LOAD_TOKENS, e.maxLoadTokens()))
                    && (e.skipReadingPrefixCache() == null || bool(SKIP_READING_PREFIX_CACHE, e.skipReadingPrefixCache()));
        } else if (event instanceof RequestFinished e) {
            open(seq, REQUEST_FINISHED);
            return string(REQUEST_ID, e.requestId()) && string(REASON, e.reason().name());
        } else if (event instanceof FlushRequired e) {
            open(seq, FLUSH_REQUIRED);
            return longs(JOB_IDS, e.jobIds()) && ints(BLOCK_IDS, e.blockIds());
        } else if (event instanceof LoadJobScheduled e) {
            open(seq, LOAD_JOB_SCHEDULED);
            return number(JOB_ID, e.jobId()) && string(REQUEST_ID, e.requestId()) && perGroup(CHUNK_INDICES, e.chunkIndices())
                    && perGroup(KEYS, e.keys()) && perGroup(BLOCK_IDS, e.blockIds());
        } else if (event instanceof LoadJobCompleted e) {
            open(seq, LOAD_JOB_COMPLETED);
            return number(JOB_ID, e.jobId()) && string(REQUEST_ID, e.requestId()) && bool(SUCCESS, e.success());
        } else if (event instanceof PrefixMatchDeferred e) {
            open(seq, PREFIX_MATCH_DEFERRED);
            return string(REQUEST_ID, e.requestId()) && number(GPU_HIT_TOKENS, e.gpuHitTokens())
                    && string(REASON, e.reason().name());
        } else if (event instanceof RequestPreempted e) {
            open(seq, REQUEST_PREEMPTED);
            return string(REQUEST_ID, e.requestId());
        } else if (event instanceof RequestAborted e) {
            open(seq, REQUEST_ABORTED);
            return string(REQUEST_ID, e.requestId());
        } else if (event instanceof WindowBlocksFreed e) {
            open(seq, WINDOW_BLOCKS_FREED);
            return string(REQUEST_ID, e.requestId()) && perGroup(BLOCK_IDS, e.blockIds());
        } else if (event instanceof StoreDeferred e) {
            open(seq, STORE_DEFERRED);
            return string(REQUEST_ID, e.requestId()) && perGroup(CHUNK_INDICES, e.chunkIndices())
                    && string(REASON, e.reason().name());
        } else if (event instanceof CommandRejected e) {
            open(seq, COMMAND_REJECTED);
            // The request or job id only when the command gave one, as a string or an integer as given.
            return number(LINE, e.line()) && string(CMD, e.cmd()) && string(CODE, e.code().name())
                    && string(MESSAGE, e.message()) && id(REQUEST_ID, e.requestId()) && id(JOB_ID, e.jobId());
        } else if (event instanceof CacheReset e) {
            open(seq, CACHE_RESET);
            return number(STALE_BELOW_JOB_ID, e.staleBelowJobId());
        }
        return false; // EngineConfigured: Jackson's
    }

    /** A rejection's id: left out when absent, else a string or an integer (any other value is Jackson's to write). */
    private boolean id(byte[] field, Object value) {
        if (value == null) {
            return true;
        } else if (value instanceof String text) {
            return string(field, text);
        } else if (value instanceof Long number) {
            return number(field, number);
        }
        return false;
    }

    private void open(long seq, byte[] type) {
        out.put(SEQ);
        out.number(seq);
        out.put(type);
    }

    private boolean number(byte[] field, long value) {
        out.put(field);
        out.number(value);
        return true;
    }

    private boolean bool(byte[] field, boolean value) {
        out.put(field);
        out.bool(value);
        return true;
    }

    private boolean string(byte[] field, String value) {
        out.put(field);
        return out.string(value);
    }

    private boolean ints(byte[] field, List<Integer> values) {
        out.put(field);
        return out.intArray(values);
    }

    private boolean longs(byte[] field, List<Long> values) {
        out.put(field);
        return out.longArray(values);
    }

    private boolean strings(byte[] field, List<String> values) {
        out.put(field);
        return out.stringArray(values);
    }

    /**
     * A per-group field as contract 7.2 writes it: one group's list flat, two or more as a list of lists; a group's
     * list holds integers, strings and nulls (a sliding group's entries below its window).
     */
    private boolean perGroup(byte[] field, PerGroup<?> value) {
        out.put(field);
        if (value.groupCount() == 1) {
            return out.scalarArray(value.group(0));
        }
        out.put((byte) '[');
        List<? extends List<?>> lists = value.lists();
        for (int g = 0, n = lists.size(); g < n; g++) {
            if (g > 0) {
                out.comma();
            }
            if (!out.scalarArray(lists.get(g))) {
                return false;
            }
        }
        out.put((byte) ']');
        return true;
    }

    private static byte[] field(String name) {
        return JsonBytes.ascii(", \"" + name + "\": ");
    }

    private static byte[] type(Class<? extends EngineEvent> type) {
        return JsonBytes.ascii(", \"type\": \"" + EventTypes.nameOf(type) + "\"");
    }
}
