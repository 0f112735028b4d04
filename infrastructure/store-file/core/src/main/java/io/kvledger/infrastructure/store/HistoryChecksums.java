package io.kvledger.infrastructure.store;

import io.kvledger.infrastructure.json.Utf8Lines;
import java.io.IOException;
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
 * <p>Without parsing, a step is found by its bytes: its first line's envelope names store format 3
 * ({@code "storeFormat": 3}) and its last line ends with its checksum ({@code "stepCrc32c": N}). Lines
 * before the first such step were written before format 3 and carry none; from the first one on every
 * line belongs to a checked step (as {@link StepChecksums} requires), so a line cannot escape the check by
 * losing either field.
 */
final class HistoryChecksums {

    private static final byte[] BEGINS = ("\"" + StepChecksums.FORMAT_FIELD + "\": " + StepChecksums.FORMAT)
            .getBytes(StandardCharsets.US_ASCII);

    private HistoryChecksums() {
    }

    /**
     * Checks the steps of {@code file}'s bytes up to {@code end} (a snapshot's offset), whose first line is
     * line (and seq) {@code linesBefore + 1}.
     *
     * @throws StoreCorruptedException naming the line of a step that fails its checksum
     */
    static void check(FileChannel channel, Path file, long end, long linesBefore) throws IOException {
        Utf8Lines lines = new Utf8Lines(new ChannelInputStream(channel, 0, end), linesBefore);
        CRC32C crc = new CRC32C();
        boolean open = false;
        boolean checked = false;
        long first = 0;
        while (lines.advance()) {
            long line = lines.number();
            byte[] bytes = lines.bytes();
            int offset = lines.offset();
            int length = lines.length();
            boolean begins = contains(bytes, offset, length, BEGINS);
            int mark = StepChecksums.lastIndexOf(bytes, offset, length);
            if (begins) {
                if (open) {
                    throw corrupted(file, line, "a step begins here before the step of line " + first + " ended");
                }
                open = true;
                first = line;
                crc.reset();
            }
            if (!open) {
                if (checked || mark >= 0) {
                    throw corrupted(file, line, "this line belongs to no step of store format " + StepChecksums.FORMAT
                            + ", but the store carries a checksum on every step from its first one of that format on");
                }
                continue; // written before format 3
            }
            if (mark < 0) {
                crc.update(bytes, offset, length);
                crc.update('\n');
                continue;
            }
            int covered = StepChecksums.coveredEnd(bytes, offset, mark);
            crc.update(bytes, offset, covered - offset);
            if (StepChecksums.storedChecksum(bytes, mark, offset + length) != crc.getValue()) {
                throw corrupted(file, line, "seq " + line + ": the step of seq " + first + " to " + line + " (lines " + first
                        + " to " + line + ") does not match its checksum (" + StepChecksums.FIELD + "): one of its lines"
                        + " was changed after it was written");
            }
            open = false;
            checked = true;
        }
        if (open) {
            throw corrupted(file, first, "the step that begins here does not end before the snapshot's offset " + end);
        }
    }

    private static StoreCorruptedException corrupted(Path file, long line, String reason) {
        return new StoreCorruptedException(file, line, reason + " (checked on open: the lines before the store's snapshot)");
    }

    private static boolean contains(byte[] bytes, int offset, int length, byte[] part) {
        outer:
        for (int at = offset, last = offset + length - part.length; at <= last; at++) {
            for (int i = 0; i < part.length; i++) {
                if (bytes[at + i] != part[i]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
