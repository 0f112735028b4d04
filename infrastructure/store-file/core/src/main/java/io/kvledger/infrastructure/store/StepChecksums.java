package io.kvledger.infrastructure.store;

import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.log.StepCheck;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The checksum of each stored step (store format 3): the last line of every append ends with
 * {@code "stepCrc32c": N}, the CRC32C of the append's bytes from the start of its first line up to the
 * separator before that field (the newlines of its earlier lines included). A line changed after it
 * was written, even into valid JSON ({@code req-1432} to {@code reQ-1432}), fails its step's check.
 *
 * <p>Each step of format 3 says so on its first line ({@code envelope.storeFormat}); such a step, and
 * every step after the first checked one, without a checksum is refused too (a step cannot escape
 * the check by losing its field). Steps of stores written before (formats 1 and 2) carry
 * none and are read as they are: {@link #unchecked()} counts them. Appends run in the order of the
 * file, so one instance checks one reading of one file, front to back.
 *
 * <p>A reading that starts inside the file at a line that may not begin an append (an Axon read from
 * an indexed message) checks the steps that begin after it only.
 */
final class StepChecksums implements StepCheck {

    /** The field that closes a step's last line. */
    static final String FIELD = "stepCrc32c";
    /** The envelope field of an append's first line that names the store format it was written in. */
    static final String FORMAT_FIELD = "storeFormat";
    /** The store format that carries step checksums. */
    static final int FORMAT = 3;

    private static final byte[] MARK = ("\"" + FIELD + "\"").getBytes(StandardCharsets.US_ASCII);

    private final CRC32C crc = new CRC32C();
    private boolean required;
    private boolean aligned;
    private boolean partial;
    private long remaining = -1; // lines of the current append still to come; -1 between appends
    private long firstLine;
    private long firstSeq;
    private long unchecked;
    private long uncheckedLastSeq;

    /** @param atAppendStart whether the first line read begins an append (the file's start, a snapshot's offset) */
    StepChecksums(boolean atAppendStart) {
        this.aligned = atAppendStart;
    }

    /** Steps read without a checksum (written before format 3). */
    long unchecked() {
        return unchecked;
    }

    /** The seq of the last line of the last step read without a checksum (0 when none). */
    long uncheckedLastSeq() {
        return uncheckedLastSeq;
    }

    @Override
    public boolean insideStep() {
        return remaining >= 0;
    }

    @Override
    public void check(LogEntry entry, byte[] bytes, int offset, int length) throws MalformedLogException {
        if (remaining < 0) {
            if (entry.envelope() == null) {
                return; // not a store's line (a plain log), or a line the store's own scan refuses
            }
            if (StoreLines.storeFormat(entry) >= FORMAT) {
                required = true;
            }
            partial = !aligned;
            aligned = true;
            crc.reset();
            firstLine = entry.line();
            firstSeq = entry.seq();
        }
        remaining = entry.envelope() != null ? StoreLines.batchRemaining(entry) : remaining - 1;
        if (remaining > 0) {
            crc.update(bytes, offset, length);
            crc.update('\n');
            return;
        }
        remaining = -1;
        int mark = lastIndexOf(bytes, offset, length);
        if (partial) {
            required |= mark >= 0;
            return;
        }
        if (mark < 0) {
            if (required) {
                throw new MalformedLogException(entry.line(), "the step of seq " + firstSeq + " to " + entry.seq()
                        + " has no checksum (" + FIELD + "), but the store carries one on every step from "
                        + "its first step of format " + FORMAT + " on: a line was changed or replaced");
            }
            unchecked++;
            uncheckedLastSeq = entry.seq();
            return;
        }
        int covered = coveredEnd(bytes, offset, mark);
        crc.update(bytes, offset, covered - offset);
        long stored = storedChecksum(bytes, mark, offset + length);
        if (stored != crc.getValue()) {
            throw new MalformedLogException(entry.line(), "seq " + entry.seq() + ": the step of seq " + firstSeq + " to "
                    + entry.seq() + " (lines " + firstLine + " to " + entry.line() + ") does not match its checksum ("
                    + FIELD + "): one of its lines was changed after it was written");
        }
        required = true;
    }

    /** The CRC32C of {@code length} bytes, as the writer appends it. */
    static long of(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return crc.getValue();
    }

    /** Where the bytes a step's checksum covers end on its last line: before the {@code ", "} ahead of the field at {@code mark}. */
    static int coveredEnd(byte[] bytes, int offset, int mark) {
        int covered = mark;
        while (covered > offset && bytes[covered - 1] == ' ') {
            covered--;
        }
        if (covered > offset && bytes[covered - 1] == ',') {
            covered--;
        }
        return covered;
    }

    /** The checksum the field at {@code mark} holds, up to the line's {@code end}; -1 when it is not a plain number. */
    static long storedChecksum(byte[] bytes, int mark, int end) {
        return digits(bytes, mark + MARK.length, end);
    }

    /** The position of the last {@code "stepCrc32c"} of the line, or -1. */
    static int lastIndexOf(byte[] bytes, int offset, int length) {
        for (int at = offset + length - MARK.length; at >= offset; at--) {
            int i = 0;
            while (i < MARK.length && bytes[at + i] == MARK[i]) {
                i++;
            }
            if (i == MARK.length) {
                return at;
            }
            if (offset + length - at > 32) {
                return -1; // the field is the line's last: no need to look further back
            }
        }
        return -1;
    }

    /** The number after the field's colon, up to the object's end; -1 when it is not a plain number. */
    private static long digits(byte[] bytes, int from, int end) {
        long value = 0;
        boolean any = false;
        for (int i = from; i < end; i++) {
            byte b = bytes[i];
            if (b >= '0' && b <= '9') {
                value = value * 10 + (b - '0');
                any = true;
                if (value > 0xFFFF_FFFFL) {
                    return -1;
                }
            } else if (b != ':' && b != ' ' && !(b == '}' && i == end - 1)) {
                return -1;
            }
        }
        return any ? value : -1;
    }
}
