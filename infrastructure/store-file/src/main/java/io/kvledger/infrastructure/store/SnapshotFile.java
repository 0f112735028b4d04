package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.json.EventJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The latest snapshot of a store's engine, in {@code <store>.snapshot} beside the store file: a header
 * line, then the state as one line of JSON ({@link StateCodec}). The header ties the snapshot to the
 * log: the seq and byte offset of the last line it covers and that line's CRC32C, and the state's own
 * length and CRC32C. A snapshot is written to a temporary file and renamed over the old one, so a
 * crash leaves the old one or the new one, whole.
 *
 * <p>{@link #read} checks all of that against the store file; a snapshot that fails any check is
 * {@link Loaded#rejected() rejected} with its reason, and the store opens from its events instead.
 */
final class SnapshotFile {

    static final int FORMAT = 1;

    /** A snapshot: the state after line {@code seq} (ending at byte {@code offset}), message {@code sequenceNumber} of {@code engineId}. */
    record Snapshot(String engineId, long sequenceNumber, long seq, long offset, EngineState state) {
    }

    /** What {@link #read} found: a snapshot that passed every check, or why the one found was rejected, or neither. */
    record Loaded(Snapshot snapshot, String rejected) {
        static final Loaded NONE = new Loaded(null, null);
    }

    private SnapshotFile() {
    }

    static Path pathOf(Path store) {
        return store.resolveSibling(store.getFileName() + ".snapshot");
    }

    /** Writes {@code snapshot} of the store open on {@code channel}; forced (file and directory) when {@code durable}. */
    static void write(Path store, FileChannel channel, Snapshot snapshot, boolean durable) throws IOException {
        byte[] state = StateCodec.encode(snapshot.state());
        ObjectNode header = EventJson.mapper().createObjectNode();
        header.put("snapshot", FORMAT);
        header.put("engineId", snapshot.engineId());
        header.put("sequenceNumber", snapshot.sequenceNumber());
        header.put("seq", snapshot.seq());
        header.put("offset", snapshot.offset());
        header.put("lineCrc", crc(lineEndingAt(channel, snapshot.offset())));
        header.put("stateBytes", state.length);
        header.put("stateCrc", crc(state));
        Path target = pathOf(store);
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(out, ByteBuffer.wrap((EventJson.toLine(header) + "\n").getBytes(StandardCharsets.UTF_8)));
            writeFully(out, ByteBuffer.wrap(state));
            writeFully(out, ByteBuffer.wrap(new byte[] {'\n'}));
            if (durable) {
                out.force(true);
            }
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
        if (durable) {
            StoreFile.forceDirectory(target);
        }
    }

    /** Reads the store's snapshot, if it has one, and checks it against the store open on {@code channel}. */
    static Loaded read(Path store, FileChannel channel) {
        Path path = pathOf(store);
        if (!Files.exists(path)) {
            return Loaded.NONE;
        }
        try {
            byte[] bytes = Files.readAllBytes(path);
            int newline = indexOf(bytes, (byte) '\n', 0);
            if (newline < 0) {
                return rejected(path, "it has no header line");
            }
            JsonNode header = EventJson.mapper().readTree(Arrays.copyOfRange(bytes, 0, newline));
            if (header == null || header.path("snapshot").asInt() != FORMAT) {
                return rejected(path, "it is not a snapshot of format " + FORMAT);
            }
            int length = header.path("stateBytes").asInt(-1);
            if (length < 0 || newline + 1 + length > bytes.length) {
                return rejected(path, "its state is cut short");
            }
            byte[] state = Arrays.copyOfRange(bytes, newline + 1, newline + 1 + length);
            if (crc(state) != header.path("stateCrc").asLong()) {
                return rejected(path, "its state does not match its checksum (a damaged file)");
            }
            long offset = header.path("offset").asLong();
            long seq = header.path("seq").asLong();
            if (offset <= 0 || offset > channel.size()) {
                return rejected(path, "it covers " + offset + " bytes, but the store has " + channel.size());
            }
            if (!coversLine(channel, offset, seq, header.path("lineCrc").asLong())) {
                return rejected(path, "the store's line at seq " + seq + " is not the one it was taken after"
                        + " (a snapshot of another store, or of a store since rewritten)");
            }
            EngineState decoded = StateCodec.decode(state);
            return new Loaded(new Snapshot(header.path("engineId").asText(), header.path("sequenceNumber").asLong(),
                    seq, offset, decoded), null);
        } catch (IOException | RuntimeException e) {
            return rejected(path, "it cannot be read: " + e.getMessage());
        }
    }

    /** Whether the store's line that ends at {@code offset} is the line {@code seq} whose CRC32C the snapshot recorded. */
    private static boolean coversLine(FileChannel channel, long offset, long seq, long lineCrc) {
        try {
            byte[] line = lineEndingAt(channel, offset);
            if (crc(line) != lineCrc) {
                return false;
            }
            JsonNode last = EventJson.mapper().readTree(line);
            return last != null && last.path("seq").asLong() == seq;
        } catch (IOException e) {
            return false; // no line ends there
        }
    }

    private static Loaded rejected(Path path, String reason) {
        return new Loaded(null, path + " is not used: " + reason);
    }

    /** The line whose newline is the byte just before {@code offset}, newline excluded. */
    static byte[] lineEndingAt(FileChannel channel, long offset) throws IOException {
        long end = offset - 1;
        if (end < 0 || read(channel, end, 1)[0] != '\n') {
            throw new IOException("no line ends at byte " + offset);
        }
        long start = end;
        while (start > 0) {
            int length = (int) Math.min(8192, start);
            byte[] chunk = read(channel, start - length, length);
            int i = length - 1;
            while (i >= 0 && chunk[i] != '\n') {
                i--;
            }
            if (i >= 0) {
                start = start - length + i + 1;
                break;
            }
            start -= length;
        }
        return read(channel, start, (int) (end - start));
    }

    private static byte[] read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new IOException("the store ended at byte " + (position + buffer.position()));
            }
        }
        return buffer.array();
    }

    private static void writeFully(FileChannel out, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
    }

    private static int indexOf(byte[] bytes, byte value, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static long crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }
}
