package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a store file once when it opens: every line is validated by the log reader (the same checks
 * and upcasting as the command line's), the index is built, and a torn end is found.
 *
 * <p>Torn means what an append the process did not finish leaves behind, and only at the end of the
 * file: bytes after the last newline; a last line that is not even a JSON object (a write the
 * operating system did not finish, e.g. zeros after a power loss); or the first lines of an append
 * whose remaining lines never came ({@code batchRemaining}). Those are cut. Anything else wrong, at
 * the end or in the middle, is corruption and the file is not opened: cutting it could drop events an
 * append acknowledged.
 */
final class StoreScan {

    /** What the open found: the index of the whole appends, where they end, and what to cut after them. */
    record Result(StoreIndex index, long end, RecoveryReport report, Unchecked unchecked) {
    }

    /** The steps read without a checksum (a store written before format 3): how many, and the seq the last one ends at. */
    record Unchecked(long steps, long lastSeq) {
        static final Unchecked NONE = new Unchecked(0, 0);
    }

    private record Pending(long offset, String aggregateId, boolean startsMessage) {
    }

    /**
     * Where the scan starts: after line {@code seq}, which ends at byte {@code offset} (a snapshot's), in a
     * log of {@code config} (the snapshot state's; {@code null} from the beginning, where the first line gives it).
     */
    record Start(long seq, long offset, String aggregateId, long nextSequence, EngineConfig config) {
        static final Start BEGINNING = new Start(0, 0, null, 0, null);
    }

    private final FileChannel channel;
    private final Path file;
    private final Start start;
    private final StoreIndex index;
    private long lastPart;
    private String pendingAggregate;
    private final List<Pending> pending = new ArrayList<>();
    private final Map<String, Long> pendingNext = new HashMap<>();
    private long committedEnd;
    private long committedLines;
    private long batchStartLine;
    private long expectedRemaining = -1;
    private final StepChecksums checksums = new StepChecksums(true);

    private StoreScan(FileChannel channel, Path file, Start start) {
        this.channel = channel;
        this.file = file;
        this.start = start;
        this.index = start.seq() == 0 ? new StoreIndex()
                : new StoreIndex(start.seq(), Map.of(start.aggregateId(), start.nextSequence()));
        this.committedEnd = start.offset();
        this.committedLines = start.seq();
    }

    static Result run(FileChannel channel, Path file) throws IOException {
        return run(channel, file, Start.BEGINNING);
    }

    /** Scans only what follows {@code start}: the lines before it were checked when the snapshot was taken. */
    static Result run(FileChannel channel, Path file, Start start) throws IOException {
        return new StoreScan(channel, file, start).scan();
    }

    private Result scan() throws IOException {
        long size = channel.size();
        long whole = endOfLastNewline(size);
        List<String> reasons = new ArrayList<>();
        if (whole < size) {
            reasons.add("the last line has no newline");
        }
        long scanEnd = whole;
        if (whole > 0) {
            long lastStart = startOfLine(whole - 1);
            if (!isJsonObject(read(lastStart, whole - 1 - lastStart))) {
                scanEnd = lastStart;
                reasons.add("the last line is not a JSON object");
            }
        }
        readLines(scanEnd);
        if (!pending.isEmpty()) {
            reasons.add("the append that began at line " + batchStartLine + " wrote " + pending.size()
                    + " of its lines but not the rest");
        }
        if (committedEnd < size && reasons.isEmpty()) {
            reasons.add("blank lines after the last event");
        }
        RecoveryReport report = committedEnd == size ? RecoveryReport.CLEAN
                : new RecoveryReport(size - committedEnd, committedLines + 1, linesFrom(committedEnd, size),
                        String.join("; ", reasons));
        return new Result(index, committedEnd, report, checksums.unchecked() == 0 ? Unchecked.NONE
                : new Unchecked(checksums.unchecked(), Math.min(checksums.uncheckedLastSeq(), committedLines)));
    }

    private void readLines(long scanEnd) throws IOException {
        long from = start.offset();
        if (scanEnd <= from || scanEnd == 0) {
            return;
        }
        ChannelInputStream in = new ChannelInputStream(channel, from, scanEnd);
        EventLogReader reader = EventLogReader.continuing(in, start.seq(), start.seq(), start.config()).checking(checksums);
        long lineStart = from;
        try {
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                accept(entry, lineStart, from + reader.bytesRead());
                lineStart = from + reader.bytesRead();
            }
        } catch (MalformedLogException e) {
            if (e.line() > 0) {
                throw StoreCorruptedException.of(file, e, "");
            }
            // line 0: nothing but blank lines, which are cut as a torn end
        }
    }

    private void accept(LogEntry entry, long lineStart, long lineEnd) {
        long line = entry.line();
        if (entry.seq() != line) {
            throw new StoreCorruptedException(file, line, "seq " + entry.seq() + " is not the line's position");
        }
        boolean inAppend = expectedRemaining >= 0;
        if (entry.envelope() == null) {
            // Format 2: a line after an envelope line continues its message, within its append.
            if (!inAppend) {
                throw new StoreCorruptedException(file, line, line == 1
                        ? "no envelope: this is an event log, not a store file"
                                + " (a store is written by kvledger run --store or JsonlEventStorageEngine)"
                        : "no envelope, and no append announced more lines (envelope.batchRemaining)");
            }
            pending.add(new Pending(lineStart, pendingAggregate, false));
            countDown(line, lineEnd, expectedRemaining);
            return;
        }
        String aggregateId = entry.envelope().aggregateId();
        if (aggregateId.isEmpty()) {
            throw new StoreCorruptedException(file, line, "envelope.aggregateId is missing");
        }
        long remaining = StoreLines.batchRemaining(entry);
        long part = StoreLines.part(entry);
        if (inAppend && remaining != expectedRemaining) {
            throw new StoreCorruptedException(file, line, "the append that began at line " + batchStartLine
                    + " announced " + (expectedRemaining + 1) + " more line(s), but this line begins another");
        }
        if (!inAppend && part > 0) {
            throw new StoreCorruptedException(file, line, "part " + part + " of a message begins an append");
        }
        boolean startsMessage = part == 0;
        long next = pendingNext.getOrDefault(aggregateId, index.nextSequence(aggregateId));
        // Format 1: a line that continues a step's message repeats its sequence number, one part further.
        long expected = startsMessage ? next : next - 1;
        if (entry.envelope().sequenceNumber() != expected) {
            throw new StoreCorruptedException(file, line, "aggregate " + aggregateId + " has sequence number "
                    + entry.envelope().sequenceNumber() + " here, expected " + expected);
        }
        if (!startsMessage && (!aggregateId.equals(pendingAggregate) || part != lastPart + 1)) {
            throw new StoreCorruptedException(file, line, "part " + part + " of a message does not follow part "
                    + lastPart + " of the same append");
        }
        if (!inAppend) {
            batchStartLine = line;
        }
        pending.add(new Pending(lineStart, aggregateId, startsMessage));
        pendingNext.put(aggregateId, startsMessage ? next + 1 : next);
        pendingAggregate = aggregateId;
        lastPart = part;
        countDown(line, lineEnd, remaining);
    }

    /**
     * One more line of the append read, with {@code remaining} lines of it still to come: when none,
     * the append is whole and enters the index.
     */
    private void countDown(long line, long lineEnd, long remaining) {
        if (remaining > 0) {
            expectedRemaining = remaining - 1;
            return;
        }
        pending.forEach(p -> index.add(p.offset(), p.aggregateId(), p.startsMessage()));
        pending.clear();
        pendingNext.clear();
        expectedRemaining = -1;
        committedEnd = lineEnd;
        committedLines = line;
    }

    private static boolean isJsonObject(byte[] line) {
        try {
            JsonNode node = EventJson.mapper().readTree(line);
            return node != null && node.isObject();
        } catch (IOException e) {
            return false;
        }
    }

    /** The position just after the last newline; 0 when there is none. */
    private long endOfLastNewline(long size) throws IOException {
        long position = size;
        while (position > 0) {
            int length = (int) Math.min(8192, position);
            byte[] chunk = read(position - length, length);
            for (int i = length - 1; i >= 0; i--) {
                if (chunk[i] == '\n') {
                    return position - length + i + 1;
                }
            }
            position -= length;
        }
        return 0;
    }

    /** The start of the line whose newline is at {@code newline}. */
    private long startOfLine(long newline) throws IOException {
        return endOfLastNewline(newline);
    }

    private long linesFrom(long start, long size) throws IOException {
        long lines = 0;
        byte last = '\n';
        for (long position = start; position < size; position += 8192) {
            byte[] chunk = read(position, (int) Math.min(8192, size - position));
            for (byte b : chunk) {
                if (b == '\n') {
                    lines++;
                }
            }
            last = chunk[chunk.length - 1];
        }
        return last == '\n' ? lines : lines + 1;
    }

    private byte[] read(long position, long length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(length));
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException(file + " ended while it was being read");
            }
        }
        return buffer.array();
    }
}
