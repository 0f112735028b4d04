package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.config.EngineConfig;
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

    /**
     * The snapshot format written: 3 holds {@link StateCodec}'s version 2 (every order canonical); 2 names the
     * state's encoding and its version ({@code stateCodec}, {@code stateVersion}) and holds version 1 (the hash
     * maps in Vavr's order); format 1 had neither and holds version 1. All three are read.
     */
    static final int FORMAT = 3;
    /** The oldest format read. */
    static final int OLDEST_FORMAT = 1;
    /** The encoding of the state line. */
    static final String STATE_CODEC = "StateCodec";
    /**
     * The version of {@link StateCodec}'s encoding written. When the encoding changes, raise it and keep
     * the decoder of every older version ({@link #decodeState}), so that a store written before opens
     * from its snapshot rather than by folding every event again.
     */
    static final int STATE_VERSION = 2;

    /**
     * A snapshot: the state after line {@code seq} (ending at byte {@code offset}), message {@code sequenceNumber} of
     * {@code engineId}, kept as {@link StateCodec}'s bytes of the current version. A state is folded in place by the one
     * aggregate it is handed to, so a snapshot never keeps one: each reader gets a state of its own, decoded from the
     * bytes (the first reader of a snapshot read from a file gets the state decoded while checking it).
     */
    static final class Snapshot {
        private final String engineId;
        private final long sequenceNumber;
        private final long seq;
        private final long offset;
        private final byte[] stateBytes;
        private final EngineConfig config;
        /** The state decoded when the file was read, for the first reader only; {@code null} after. */
        private EngineState unread;

        Snapshot(String engineId, long sequenceNumber, long seq, long offset, byte[] stateBytes, EngineConfig config,
                 EngineState unread) {
            this.engineId = engineId;
            this.sequenceNumber = sequenceNumber;
            this.seq = seq;
            this.offset = offset;
            this.stateBytes = stateBytes;
            this.config = config;
            this.unread = unread;
        }

        /** The snapshot of {@code state}, encoded now (on the caller's thread, which owns the state). */
        static Snapshot of(String engineId, long sequenceNumber, long seq, long offset, EngineState state) throws IOException {
            return new Snapshot(engineId, sequenceNumber, seq, offset, StateCodec.encode(state), state.config(), null);
        }

        String engineId() {
            return engineId;
        }

        long sequenceNumber() {
            return sequenceNumber;
        }

        long seq() {
            return seq;
        }

        long offset() {
            return offset;
        }

        /** The engine's configuration (without decoding the state). */
        EngineConfig config() {
            return config;
        }

        /** The same state at {@code newOffset} (a segment's base: 0). */
        Snapshot at(long newOffset) {
            return new Snapshot(engineId, sequenceNumber, seq, newOffset, stateBytes, config, null);
        }

        /** A state of the caller's own: the one decoded when the file was read, once; else decoded again. */
        EngineState state() {
            synchronized (this) {
                EngineState first = unread;
                if (first != null) {
                    unread = null;
                    return first;
                }
            }
            try {
                return StateCodec.decode(stateBytes);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot decode the snapshot after seq " + seq + " again", e);
            }
        }
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
        writeFile(pathOf(store), snapshot, crc(lineEndingAt(channel, snapshot.offset())), durable);
    }

    /**
     * Writes the base of a segment that begins after {@code snapshot} ({@code <segment>.base}): the
     * state its first line follows, {@code lastLine} being the previous segment's last line, so that
     * the segment can be opened and replayed on its own. Its offset is 0: nothing of the segment
     * precedes it.
     */
    static void writeBase(Path segment, Snapshot snapshot, byte[] lastLine, boolean durable) throws IOException {
        writeFile(basePathOf(segment), snapshot.at(0), crc(lastLine), durable);
    }

    static Path basePathOf(Path segment) {
        return segment.resolveSibling(segment.getFileName() + ".base");
    }

    private static void writeFile(Path target, Snapshot snapshot, long lineCrc, boolean durable) throws IOException {
        byte[] state = snapshot.stateBytes;
        ObjectNode header = EventJson.mapper().createObjectNode();
        header.put("snapshot", FORMAT);
        header.put("stateCodec", STATE_CODEC);
        header.put("stateVersion", STATE_VERSION);
        header.put("engineId", snapshot.engineId());
        header.put("sequenceNumber", snapshot.sequenceNumber());
        header.put("seq", snapshot.seq());
        header.put("offset", snapshot.offset());
        header.put("lineCrc", lineCrc);
        header.put("stateBytes", state.length);
        header.put("stateCrc", crc(state));
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

    /**
     * Reads the base of {@code segment} ({@link #writeBase}), checking its state against its checksum.
     *
     * @throws IOException naming the file and what is wrong with it
     */
    static Snapshot readBase(Path segment) throws IOException {
        Path path = basePathOf(segment);
        byte[] bytes = Files.readAllBytes(path);
        int newline = indexOf(bytes, (byte) '\n', 0);
        JsonNode header = newline < 0 ? null : EventJson.mapper().readTree(Arrays.copyOfRange(bytes, 0, newline));
        String unreadable = header == null ? "it has no header line" : unreadable(header);
        if (unreadable != null) {
            throw new IOException(path + " is not a segment base this version reads: " + unreadable);
        }
        int length = header.path("stateBytes").asInt(-1);
        if (length < 0 || newline + 1 + length > bytes.length) {
            throw new IOException(path + ": its state is cut short");
        }
        byte[] state = Arrays.copyOfRange(bytes, newline + 1, newline + 1 + length);
        if (crc(state) != header.path("stateCrc").asLong()) {
            throw new IOException(path + ": its state does not match its checksum (a damaged file)");
        }
        return decoded(header.path("engineId").asText(), header.path("sequenceNumber").asLong(),
                header.path("seq").asLong(), 0, header, state);
    }

    /** Why this version cannot read a snapshot with {@code header}; {@code null} when it can. */
    private static String unreadable(JsonNode header) {
        int format = header.path("snapshot").asInt(-1);
        if (format < OLDEST_FORMAT || format > FORMAT) {
            return "snapshot format " + header.path("snapshot") + " (this version reads formats " + OLDEST_FORMAT + " to "
                    + FORMAT + ")";
        }
        if (format == 1) {
            return null; // StateCodec's version 1, before the header named it
        }
        if (!STATE_CODEC.equals(header.path("stateCodec").asText())) {
            return "its state is encoded as " + header.path("stateCodec") + ", not " + STATE_CODEC;
        }
        int version = header.path("stateVersion").asInt(-1);
        if (version < 1 || version > STATE_VERSION) {
            return "its state is " + STATE_CODEC + " version " + header.path("stateVersion")
                    + " (written by a newer version; this one reads up to " + STATE_VERSION + ")";
        }
        return null;
    }

    /** The snapshot a file holds, its state decoded (and encoded again when the file's encoding is an older version). */
    private static Snapshot decoded(String engineId, long sequenceNumber, long seq, long offset, JsonNode header,
                                    byte[] state) throws IOException {
        EngineState decoded = decodeState(header, state);
        boolean current = header.path("snapshot").asInt() != 1 && header.path("stateVersion").asInt() == STATE_VERSION;
        return new Snapshot(engineId, sequenceNumber, seq, offset, current ? state : StateCodec.encode(decoded),
                decoded.config(), decoded);
    }

    /** The state of a snapshot, decoded by the codec version its header names (1 for format 1). */
    private static EngineState decodeState(JsonNode header, byte[] state) throws IOException {
        int version = header.path("snapshot").asInt() == 1 ? 1 : header.path("stateVersion").asInt();
        return switch (version) {
            case 1, 2 -> StateCodec.decode(state); // the same shape; version 1's orders were Vavr's, read as any
            default -> throw new IOException("no decoder of " + STATE_CODEC + " version " + version);
        };
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
            String unreadable = header == null ? "it has no header" : unreadable(header);
            if (unreadable != null) {
                return rejected(path, "this version does not read it: " + unreadable);
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
            return new Loaded(decoded(header.path("engineId").asText(), header.path("sequenceNumber").asLong(),
                    seq, offset, header, state), null);
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
