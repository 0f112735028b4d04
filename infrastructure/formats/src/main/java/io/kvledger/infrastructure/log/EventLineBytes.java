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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Lays the lines of the common events out straight into bytes: {@code {"seq": N, "type": "T", "f": V, ...}} plus
 * the newline, the bytes Jackson's serializer of the event's record writes in the contract's spacing
 * ({@code EventLineFields}), without a generator, a serializer or a reflective accessor per field. A simulation
 * writes a million lines in a second or two, and through Jackson each cost about 1 µs of C1's code, a quarter of
 * the checking thread. What it does not lay out itself it declines, appending nothing, and the caller writes that
 * line through Jackson: the configuration, a string JSON escapes or that is not ASCII, a per-group entry or a
 * rejection's id that is not an integer, a string or null. {@code EventLineBytesTest} holds every line to Jackson's bytes.
 * Not thread-safe.
 */
final class EventLineBytes {

    private static final byte[] SEQ = ascii("{\"seq\": ");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");
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

    /** {@code Long.MIN_VALUE}'s 20 characters, the longest number. */
    private static final int MAX_NUMBER = 20;
    private static final byte[] MIN_INT = ascii(Integer.toString(Integer.MIN_VALUE));
    /** "00" to "99", two bytes each. */
    private static final byte[] PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    /** Slots of the table of recent strings, a power of two. */
    private static final int RECENT = 4096;

    private final String[] recentStrings = new String[RECENT];
    private final byte[][] recentQuoted = new byte[RECENT][];
    private byte[] bytes;
    private int size;

    EventLineBytes(int capacity) {
        bytes = new byte[capacity];
    }

    /** The lines appended since the last {@link #clear}, in {@code [0, size())}. */
    byte[] bytes() {
        return bytes;
    }

    int size() {
        return size;
    }

    void clear() {
        size = 0;
    }

    /** Appends bytes encoded elsewhere (a line the caller wrote through Jackson). */
    void append(byte[] line, int offset, int length) {
        ensure(length);
        System.arraycopy(line, offset, bytes, size, length);
        size += length;
    }

    /**
     * Appends the event's line and its newline; {@code false}, with nothing appended, for a line this class does
     * not lay out (the caller writes it through Jackson).
     */
    boolean append(long seq, EngineEvent event) {
        int start = size;
        if (fields(seq, event)) {
            put((byte) '}');
            put((byte) '\n');
            return true;
        }
        size = start;
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
        put(SEQ);
        digits(seq);
        put(type);
    }

    private boolean number(byte[] field, long value) {
        put(field);
        digits(value);
        return true;
    }

    private boolean bool(byte[] field, boolean value) {
        put(field);
        put(value ? TRUE : FALSE);
        return true;
    }

    private boolean string(byte[] field, String value) {
        put(field);
        return quoted(value);
    }

    private boolean ints(byte[] field, List<Integer> values) {
        put(field);
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            Integer value = values.get(i);
            if (value == null) {
                return false;
            }
            digits(value);
        }
        put((byte) ']');
        return true;
    }

    private boolean longs(byte[] field, List<Long> values) {
        put(field);
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            Long value = values.get(i);
            if (value == null) {
                return false;
            }
            digits(value);
        }
        put((byte) ']');
        return true;
    }

    private boolean strings(byte[] field, List<String> values) {
        put(field);
        return stringArray(values);
    }

    private boolean stringArray(List<String> values) {
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            if (!quoted(values.get(i))) {
                return false;
            }
        }
        put((byte) ']');
        return true;
    }

    /** A per-group field as contract 7.2 writes it: one group's list flat, two or more as a list of lists. */
    private boolean perGroup(byte[] field, PerGroup<?> value) {
        put(field);
        if (value.groupCount() == 1) {
            return entries(value.group(0));
        }
        put((byte) '[');
        List<? extends List<?>> lists = value.lists();
        for (int g = 0, n = lists.size(); g < n; g++) {
            if (g > 0) {
                comma();
            }
            if (!entries(lists.get(g))) {
                return false;
            }
        }
        put((byte) ']');
        return true;
    }

    /** A group's list: integers, strings and nulls (a sliding group's entries below its window). */
    private boolean entries(List<?> entries) {
        put((byte) '[');
        for (int i = 0, n = entries.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            Object entry = entries.get(i);
            if (entry == null) {
                put(NULL);
            } else if (entry instanceof Integer number) {
                digits(number);
            } else if (!(entry instanceof String text) || !quoted(text)) {
                return false;
            }
        }
        put((byte) ']');
        return true;
    }

    private void comma() {
        ensure(2);
        bytes[size++] = ',';
        bytes[size++] = ' ';
    }

    /**
     * A string as JSON writes it when nothing in it is escaped: printable ASCII without a quote or a backslash.
     * {@code false} for any other string (a null one too), which Jackson writes. A string written lately is
     * copied from its bytes of then: the engine's events name a request or a key again and again by the same
     * {@code String}.
     */
    private boolean quoted(String value) {
        if (value == null) {
            return false;
        }
        int slot = value.hashCode() & (RECENT - 1);
        if (recentStrings[slot] == value) {
            put(recentQuoted[slot]);
            return true;
        }
        int n = value.length();
        ensure(n + 2);
        byte[] into = bytes;
        int start = size;
        int at = start;
        into[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
            into[at++] = (byte) c;
        }
        into[at++] = '"';
        size = at;
        recentStrings[slot] = value;
        recentQuoted[slot] = Arrays.copyOfRange(into, start, at);
        return true;
    }

    /** The decimal digits of {@code value}, as Jackson writes a number. */
    private void digits(long value) {
        if (value == (int) value) {
            digits((int) value);
            return;
        }
        ensure(MAX_NUMBER);
        byte[] text = ascii(Long.toString(value)); // rare: a job id past 2^31
        System.arraycopy(text, 0, bytes, size, text.length);
        size += text.length;
    }

    /** Two digits at a time, from the right: C1 compiles a division by 100 into a multiply, as it does 10. */
    private void digits(int value) {
        ensure(MAX_NUMBER);
        if (value == Integer.MIN_VALUE) {
            put(MIN_INT);
            return;
        }
        byte[] into = bytes;
        int at = size;
        if (value < 0) {
            into[at++] = '-';
            value = -value;
        }
        int end = at + length(value);
        int i = end;
        while (value >= 100) {
            int pair = (value % 100) * 2;
            value /= 100;
            into[--i] = PAIRS[pair + 1];
            into[--i] = PAIRS[pair];
        }
        if (value >= 10) {
            into[--i] = PAIRS[value * 2 + 1];
            into[--i] = PAIRS[value * 2];
        } else {
            into[--i] = (byte) ('0' + value);
        }
        size = end;
    }

    /** The digits of {@code value} >= 0. */
    private static int length(int value) {
        int length = 1;
        for (int bound = 10; length < 10 && value >= bound; bound *= 10) {
            length++;
        }
        return length;
    }

    private void put(byte b) {
        ensure(1);
        bytes[size++] = b;
    }

    private void put(byte[] literal) {
        ensure(literal.length);
        System.arraycopy(literal, 0, bytes, size, literal.length);
        size += literal.length;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    private static byte[] field(String name) {
        return ascii(", \"" + name + "\": ");
    }

    private static byte[] type(Class<? extends EngineEvent> type) {
        return ascii(", \"type\": \"" + EventTypes.nameOf(type) + "\"");
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
