package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The step checksums of the lines before a snapshot, checked when a store opens from the snapshot
 * ({@link StoreFile#open}): the lines are not parsed again (that is what the snapshot saves), only
 * split and summed, so a store whose history was changed after it was written is refused on open for
 * appending, as the log tools refuse it, instead of resumed and appended to.
 *
 * <p>Without parsing, a step is found by its bytes: its first line's envelope, the line's last field (but
 * for the checksum of a one-line step), ends with {@code "storeFormat": 3}, and its last line ends with its
 * checksum ({@code "stepCrc32c": N}), as {@link StoreLines} writes them. Lines
 * before the first such step were written before format 3 and carry none; from the first one on every
 * line belongs to a checked step (as {@link StepChecksums} requires), so a line cannot escape the check by
 * losing either field.
 */
final class HistoryChecksums {

    /** How a step's first line ends its envelope (the line's last field, or the last but its checksum). */
    private static final byte[] BEGINS = ("\"" + StepChecksums.FORMAT_FIELD + "\": " + StepChecksums.FORMAT + "}")
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BEGINS_AND_LINE_ENDS = ("\"" + StepChecksums.FORMAT_FIELD + "\": " + StepChecksums.FORMAT + "}}")
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHECKSUM_FIELD = ("\"" + StepChecksums.FIELD + "\"").getBytes(StandardCharsets.US_ASCII);

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A_0A0A_0A0A_0A0AL;
    private static final long ONES = 0x0101_0101_0101_0101L;
    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
    /** Bytes read at a time. */
    private static final int CHUNK = 1 << 20;

    private HistoryChecksums() {
    }

    /**
     * Checks the steps of {@code file}'s bytes up to {@code end} (a snapshot's offset), whose first line is
     * line (and seq) {@code linesBefore + 1}. One pass over the bytes in large reads: the newlines found, a
     * line's last bytes looked at, each step's bytes summed in one call.
     *
     * @throws StoreCorruptedException naming the line of a step that fails its checksum
     */
    static void check(FileChannel channel, Path file, long end, long linesBefore) throws IOException {
        byte[] bytes = new byte[CHUNK];
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        CRC32C crc = new CRC32C();
        long position = 0;
        int filled = 0;
        int lineStart = 0;
        int summedTo = 0; // the open step's bytes before this index are in crc already
        int scan = 0;
        long line = linesBefore;
        boolean open = false;
        boolean checked = false;
        long first = 0;
        while (true) {
            int newline = scan;
            // Eight bytes at a time up to the word holding the newline (as Utf8Lines reads), then byte by byte.
            while (newline + 8 <= filled) {
                long word = (long) WORDS.get(bytes, newline) ^ NEWLINES;
                if (((word - ONES) & ~word & HIGH_BITS) != 0) {
                    break;
                }
                newline += 8;
            }
            while (newline < filled && bytes[newline] != '\n') {
                newline++;
            }
            if (newline == filled) {
                if (position >= end) {
                    break; // a snapshot's offset ends a line: nothing is left over
                }
                if (open) {
                    crc.update(bytes, summedTo, lineStart - summedTo);
                }
                if (lineStart == 0 && filled == bytes.length) {
                    bytes = java.util.Arrays.copyOf(bytes, bytes.length * 2); // a line longer than the buffer
                    buffer = ByteBuffer.wrap(bytes);
                } else {
                    System.arraycopy(bytes, lineStart, bytes, 0, filled - lineStart);
                }
                filled -= lineStart;
                scan = filled;
                lineStart = 0;
                summedTo = 0;
                buffer.limit((int) Math.min(bytes.length, filled + (end - position))).position(filled);
                int read = channel.read(buffer, position);
                if (read < 0) {
                    throw new java.io.EOFException(file + " ended at byte " + position + ", before the snapshot's offset " + end);
                }
                position += read;
                filled += read;
                continue;
            }
            line++;
            int mark = checksumField(bytes, lineStart, newline);
            boolean begins = mark >= 0 ? endsWith(bytes, lineStart, StepChecksums.coveredEnd(bytes, lineStart, mark), BEGINS)
                    : endsWith(bytes, lineStart, newline, BEGINS_AND_LINE_ENDS);
            if (begins) {
                if (open) {
                    throw corrupted(file, line, "a step begins here before the step of line " + first + " ended");
                }
                open = true;
                first = line;
                crc.reset();
                summedTo = lineStart;
            }
            if (!open) {
                if (checked || mark >= 0) {
                    throw corrupted(file, line, "this line belongs to no step of store format " + StepChecksums.FORMAT
                            + ", but the store carries a checksum on every step from its first one of that format on");
                }
            } else if (mark >= 0) {
                int covered = StepChecksums.coveredEnd(bytes, lineStart, mark);
                crc.update(bytes, summedTo, covered - summedTo);
                if (StepChecksums.storedChecksum(bytes, mark, newline) != crc.getValue()) {
                    throw corrupted(file, line, "seq " + line + ": the step of seq " + first + " to " + line + " (lines " + first
                            + " to " + line + ") does not match its checksum (" + StepChecksums.FIELD + "): one of its"
                            + " lines was changed after it was written");
                }
                open = false;
                checked = true;
            }
            lineStart = newline + 1;
            scan = lineStart;
        }
        if (open) {
            throw corrupted(file, first, "the step that begins here does not end before the snapshot's offset " + end);
        }
    }

    private static StoreCorruptedException corrupted(Path file, long line, String reason) {
        return new StoreCorruptedException(file, line, reason + " (checked on open: the lines before the store's snapshot)");
    }

    /** Whether the bytes from {@code start} to {@code end} end with {@code part}. */
    private static boolean endsWith(byte[] bytes, int start, int end, byte[] part) {
        int from = end - part.length;
        if (from < start) {
            return false;
        }
        for (int i = 0; i < part.length; i++) {
            if (bytes[from + i] != part[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the line from {@code start} to {@code end} has its {@code "stepCrc32c": N} field, which a step's last
     * line ends with (the field's opening quote), or -1: read backwards from the line's end, a few bytes only.
     */
    private static int checksumField(byte[] bytes, int start, int end) {
        int at = end - 1;
        if (at < start || bytes[at] != '}') {
            return -1;
        }
        int digitsEnd = --at;
        while (at >= start && bytes[at] >= '0' && bytes[at] <= '9') {
            at--;
        }
        if (at == digitsEnd) {
            return -1;
        }
        while (at >= start && bytes[at] == ' ') {
            at--;
        }
        if (at < start || bytes[at] != ':') {
            return -1;
        }
        return endsWith(bytes, start, at, CHECKSUM_FIELD) ? at - CHECKSUM_FIELD.length : -1;
    }
}
