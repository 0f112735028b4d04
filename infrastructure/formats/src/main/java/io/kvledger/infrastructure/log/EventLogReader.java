package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.JsonProblems;
import io.kvledger.infrastructure.json.Utf8Lines;
import io.kvledger.infrastructure.scenario.GroupsParser;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads an event log one line at a time (contract section 3), so memory does not grow with the log.
 * Held to the contract: every line a JSON object with an increasing {@code seq} and a {@code type},
 * the first an {@code EngineConfigured}, each known type with its required fields of the right shape.
 * Unknown types and extra fields are accepted. Lines of older revisions are upcast first.
 *
 * <p>A line is read first from its bytes, when it is laid out exactly as the writers lay it out
 * ({@link ByteLines}), then by a streaming parser straight into its event ({@link StreamedLines}); both take
 * only the well-formed lines they are sure of; every other line is read as a tree, checked and decoded as
 * before, so each error message is the tree path's.
 */
public final class EventLogReader {

    /** Whether the streaming fast path reads lines first: on unless {@code -Dkvledger.streamedLines=false}, for comparison. */
    static final boolean STREAMED = !"false".equals(System.getProperty("kvledger.streamedLines"));
    /** Whether the byte decoder reads lines before the streaming path: on unless {@code -Dkvledger.byteLines=false}, for comparison. */
    static final boolean BYTES = STREAMED && !"false".equals(System.getProperty("kvledger.byteLines"));

    private final Utf8Lines lines;
    /** One table of recent ids and keys for both fast readers, so an id is one {@code String} whichever read it. */
    private final RecentStrings strings = new RecentStrings();
    private ByteLines bytes = BYTES ? new ByteLines(strings) : null;
    private StreamedLines streamed = STREAMED ? new StreamedLines(strings) : null;
    private long lastSeq;
    private boolean first = true;
    /** The groups of the log's {@code EngineConfigured} ({@code null}: none): the shapes of its per-group fields. */
    private List<KvCacheGroup> groups;
    private LineCheck check;
    /** Set by {@link #wholeSteps}: a store's lines are returned a whole, checked step at a time. */
    private StepCheck steps;
    /** The lines of the step being read, held back until its last line passed the check. */
    private final ArrayDeque<LogEntry> held = new ArrayDeque<>();
    /** The lines of whole steps, in order, not returned yet. */
    private final ArrayDeque<LogEntry> ready = new ArrayDeque<>();
    /** Whether the lines come from a store (the first carried an envelope): only a store's end may be torn. */
    private boolean storeInput;
    private TornStep tornStep;

    public EventLogReader(InputStream in) {
        this.lines = new Utf8Lines(in);
    }

    private EventLogReader(InputStream in, long linesBefore, long seqBefore) {
        this.lines = new Utf8Lines(in, linesBefore);
        this.lastSeq = seqBefore;
        this.first = linesBefore == 0 && seqBefore == 0;
    }

    /**
     * Reads a log from the middle: {@code in} starts at the beginning of line {@code linesBefore + 1},
     * whose seq must exceed {@code seqBefore}. The checks of the lines before it (the first event,
     * increasing seq) are the caller's; a store made them when it opened the file. {@code config} is the
     * log's, from its {@code EngineConfigured} or from the state a snapshot or a segment's base holds: its
     * groups give the shapes of the per-group fields (contract 7.2) and whether a {@code WindowBlocksFreed}
     * is known (7.8), so a continuation reads its lines exactly as a reader from the first line does. From
     * the first line ({@code linesBefore} and {@code seqBefore} 0) the log's own first line configures the
     * reader and {@code config} may be {@code null}.
     *
     * @throws NullPointerException when {@code config} is {@code null} for a reader from the middle
     */
    public static EventLogReader continuing(InputStream in, long linesBefore, long seqBefore, EngineConfig config) {
        EventLogReader reader = new EventLogReader(in, linesBefore, seqBefore);
        if (!reader.first) {
            reader.configure(Objects.requireNonNull(config, "the config of a log read from its middle").groups());
        }
        return reader;
    }

    /** Reads the lines after a config with these groups: both paths read the per-group fields in their shapes. */
    private void configure(List<KvCacheGroup> configured) {
        groups = configured;
        if (bytes != null) {
            bytes.configure(configured);
        }
        if (streamed != null) {
            streamed.configure(configured);
        }
    }

    /** Runs {@code check} on every line returned from now on, with its bytes (a store's step checksums); returns this reader. */
    public EventLogReader checking(LineCheck check) {
        this.check = check;
        return this;
    }

    /**
     * Returns a store's lines a whole step at a time: the lines of a step are held back until its last line
     * has passed {@code check} (its checksum), so nothing of a step is seen before the step is known whole and
     * unchanged. A store's end that a process left inside a step (an append whose last lines never came, a
     * last line without its newline or that is not a JSON object) is not returned: the reader ends at the last
     * whole step, as opening the store does, and {@link #tornStep()} says what was left out. A plain log (no
     * envelope on its first line) is read as without this. Returns this reader.
     */
    public EventLogReader wholeSteps(StepCheck check) {
        this.check = check;
        this.steps = check;
        return this;
    }

    /** What a reader of {@link #wholeSteps whole steps} left out at the end, or {@code null} when nothing. */
    public TornStep tornStep() {
        return tornStep;
    }

    /** A reader of every line by the tree path alone: what the streaming path is held to, in tests. */
    static EventLogReader treeOnly(InputStream in) {
        return new EventLogReader(in).onlyTree();
    }

    /** This reader, reading every line by the tree path alone (before its first line): for tests. */
    EventLogReader onlyTree() {
        bytes = null;
        streamed = null;
        return this;
    }

    /** This reader without the byte decoder: the streaming path first, as before it (before its first line), for tests. */
    EventLogReader withoutByteLines() {
        bytes = null;
        return this;
    }

    /** Bytes read up to the end of the last line returned (blank lines included), from the stream's start. */
    public long bytesRead() {
        return lines.consumed();
    }

    /** The next entry, or {@code null} at the end. */
    public LogEntry next() throws IOException, MalformedLogException {
        if (steps == null) {
            return nextLine();
        }
        while (ready.isEmpty()) {
            if (!readStepLine()) {
                return null;
            }
        }
        return ready.poll();
    }

    /** Reads one more line of a store into the step it belongs to; {@code false} at the end. */
    private boolean readStepLine() throws IOException, MalformedLogException {
        LogEntry entry;
        try {
            entry = nextLine();
        } catch (MalformedLogException e) {
            String torn = e.line() > 0 && storeInput ? tornLine() : null;
            if (torn == null) {
                throw e;
            }
            leaveOut(e.line(), torn);
            return false;
        }
        if (entry == null) {
            if (!held.isEmpty()) {
                leaveOut(held.getLast().line(), "its append announced more lines than came");
            }
            return false;
        }
        storeInput |= entry.envelope() != null;
        if (storeInput && !lines.terminated()) {
            held.add(entry);
            leaveOut(entry.line(), "its last line has no newline: the write was cut");
            return false;
        }
        held.add(entry);
        if (!steps.insideStep()) {
            // One by one: ArrayDeque.addAll passes a method reference, which C1 allocates through a JNI call.
            for (LogEntry kept = held.pollFirst(); kept != null; kept = held.pollFirst()) {
                ready.addLast(kept);
            }
        }
        return true;
    }

    /**
     * Why the line that failed to read is a torn end (as a store's open cuts it), or {@code null} when it is
     * not: it must be the input's last non-blank line, and have no newline or not be a JSON object.
     */
    private String tornLine() throws IOException {
        String reason = !lines.terminated() ? "its last line has no newline: the write was cut"
                : !isJsonObject(lines.bytes(), lines.offset(), lines.length()) ? "its last line is not a JSON object" : null;
        if (reason == null) {
            return null;
        }
        try {
            while (lines.advance()) {
                if (!lines.isBlank()) {
                    return null; // more lines follow: not a torn end but a damaged line
                }
            }
        } catch (Utf8Lines.InvalidUtf8Exception e) {
            return null;
        }
        return reason;
    }

    private static boolean isJsonObject(byte[] bytes, int offset, int length) {
        try {
            JsonNode node = EventJson.mapper().readTree(bytes, offset, length);
            return node != null && node.isObject();
        } catch (IOException e) {
            return false;
        }
    }

    private void leaveOut(long lastLine, String reason) {
        LogEntry first = held.peekFirst();
        tornStep = new TornStep(first == null ? lastLine : first.line(), lastLine, first == null ? 0 : first.seq(), reason);
        held.clear();
    }

    private LogEntry nextLine() throws IOException, MalformedLogException {
        while (advance()) {
            if (!lines.isBlank()) {
                return parse(lines.number());
            }
        }
        if (first) {
            throw new MalformedLogException(0, "the log is empty: it must start with EngineConfigured");
        }
        return null;
    }

    private boolean advance() throws IOException, MalformedLogException {
        try {
            return lines.advance();
        } catch (Utf8Lines.InvalidUtf8Exception e) {
            throw new MalformedLogException(e.line(), "not valid UTF-8");
        }
    }

    private LogEntry parse(long line) throws MalformedLogException {
        LogEntry entry = null;
        if (bytes != null && !first) {
            entry = bytes.read(line, lines.bytes(), lines.offset(), lines.length(), lastSeq);
        }
        if (entry == null && streamed != null && !first) {
            entry = streamed.read(line, lines.bytes(), lines.offset(), lines.length(), lastSeq);
        }
        if (entry != null && groups == null && entry.event() instanceof WindowBlocksFreed) {
            entry = null; // the tree path skips a WindowBlocksFreed of a log without groups (contract 7.8)
        } else if (entry != null) {
            lastSeq = entry.seq();
        }
        if (entry == null) {
            entry = parseTree(line);
        }
        if (check != null) {
            check.check(entry, lines.bytes(), lines.offset(), lines.length());
        }
        return entry;
    }

    /** Today's path, for every line the streaming path does not take: a tree, checked, then decoded. */
    private LogEntry parseTree(long line) throws MalformedLogException {
        JsonNode node;
        try {
            // Straight from the line's bytes: no String and no char copy of it.
            node = EventJson.readTree(lines.bytes(), lines.offset(), lines.length());
        } catch (JsonProcessingException e) {
            throw new MalformedLogException(line, JsonProblems.parseFailure(lines.text(), e));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a byte array cannot fail to be read
        }
        if (node == null || !node.isObject()) {
            throw new MalformedLogException(line, "not a JSON object");
        }
        Optional<String> illFormed = JsonProblems.illFormedString(node);
        if (illFormed.isPresent()) {
            throw new MalformedLogException(line, illFormed.get());
        }
        long seq = seq(line, node.get("seq"));
        if (seq <= lastSeq) {
            throw new MalformedLogException(line, "seq " + seq + " does not increase (the line before had " + lastSeq + ")");
        }
        JsonNode typeNode = node.get("type");
        if (typeNode == null || !typeNode.isTextual()) {
            throw new MalformedLogException(line, typeNode == null ? "type is missing" : "type must be a string, was " + JsonProblems.show(typeNode));
        }
        String type = typeNode.textValue();
        if (first && !"EngineConfigured".equals(type)) {
            throw new MalformedLogException(line, "the first event must be EngineConfigured, was " + type);
        }
        Envelope envelope = envelope(line, node.get("envelope"));
        ObjectNode current = Upcasters.toCurrent(type, envelope == null ? Envelope.CURRENT_REVISION : envelope.revision(),
                (ObjectNode) node);
        boolean unknownWithoutGroups = groups == null && !first && "WindowBlocksFreed".equals(type);
        Optional<String> problem = unknownWithoutGroups ? Optional.empty() : EventSchema.problem(type, current, groups);
        if (problem.isPresent()) {
            throw new MalformedLogException(line, problem.get());
        }
        // Without groups a WindowBlocksFreed is an event type revision 4 does not know (contract 7.8): skipped.
        EngineEvent event = unknownWithoutGroups ? null
                : toEvent(line, type, current, groups == null ? 1 : groups.size());
        if (first && event instanceof EngineConfigured configured) {
            configure(configured.groups());
        }
        lastSeq = seq;
        first = false;
        return new LogEntry(line, seq, type, event, envelope, current);
    }

    /** The line's seq: an integer from 1 (the 1-based position of the event). */
    private static long seq(long line, JsonNode seqNode) throws MalformedLogException {
        if (seqNode == null) {
            throw new MalformedLogException(line, "seq is missing");
        }
        if (seqNode.isIntegralNumber() && seqNode.canConvertToLong() && seqNode.longValue() < 1) {
            throw new MalformedLogException(line, "seq must be 1 or more (the event's 1-based position), was " + seqNode);
        }
        Optional<String> problem = JsonProblems.integerProblem("seq", seqNode, 1, Long.MAX_VALUE);
        if (problem.isPresent()) {
            throw new MalformedLogException(line, problem.get());
        }
        return seqNode.longValue();
    }

    private static EngineEvent toEvent(long line, String type, ObjectNode node, int groupCount) throws MalformedLogException {
        EngineEvent event;
        try {
            event = EventDecoders.decode(type, new TreeFields(node, groupCount));
        } catch (IllegalArgumentException e) {
            throw new MalformedLogException(line, type + " cannot be read: " + e.getMessage());
        }
        if (event instanceof EngineConfigured configured && node.has("groups")) {
            event = withGroups(line, configured, node.get("groups"));
        }
        if (event instanceof EngineConfigured configured) {
            try {
                configured.config(); // the ranges of contract section 2: a log with gpuBlockSize 0 is malformed
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new MalformedLogException(line, "EngineConfigured is not a valid config: " + e.getMessage());
            }
        }
        return event;
    }

    /** {@code EngineConfigured.groups} as section 7.1 allows it (contract 7.8: any other value makes the log malformed). */
    private static EngineConfigured withGroups(long line, EngineConfigured configured, JsonNode groups) throws MalformedLogException {
        List<KvCacheGroup> parsed;
        try {
            parsed = GroupsParser.parse(groups);
        } catch (IllegalArgumentException e) {
            throw new MalformedLogException(line, "EngineConfigured.groups is not valid: " + e.getMessage());
        }
        return new EngineConfigured(configured.gpuBlockSize(), configured.blocksPerChunk(), configured.workers(),
                configured.cpuCapacityChunks(), configured.releasePolicy(), configured.maxOffloadTokens(),
                configured.offloadPromptOnly(), parsed, configured.producer());
    }

    private static Envelope envelope(long line, JsonNode node) throws MalformedLogException {
        if (node == null) {
            return null;
        }
        try {
            return new Envelope(node.path("aggregateId").asText(), node.path("sequenceNumber").asLong(),
                    node.path("eventId").asText(), Instant.parse(node.path("timestamp").asText()),
                    node.path("revision").asText(Envelope.CURRENT_REVISION));
        } catch (DateTimeParseException e) {
            throw new MalformedLogException(line, "envelope.timestamp is not an ISO-8601 instant: " + node.get("timestamp"));
        }
    }
}
