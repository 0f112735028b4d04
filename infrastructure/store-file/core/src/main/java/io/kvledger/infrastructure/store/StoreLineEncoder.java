package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventLineFields;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Encodes store lines straight to bytes with one reused Jackson generator over one reused buffer:
 * no string, tree or generator per line. A step writes hundreds of lines, so the cost per line is
 * the store's cost per step. The event's fields are written by Jackson's own serializer of its
 * record, unwrapped into the line, so they are exactly those of {@link EventJson#toNode}.
 * Not thread-safe: the store's writer thread owns it.
 */
final class StoreLineEncoder {

    private final Buffer out = new Buffer(1 << 16);
    private final JsonGenerator generator;
    private final EventLineFields eventFields = new EventLineFields();

    StoreLineEncoder() {
        try {
            generator = EventJson.lineGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forgets the lines encoded so far; the next line starts at offset 0. */
    void reset() {
        flush();
        out.size = 0;
    }

    /** Where the next line starts, from the start of the batch. */
    long position() {
        return out.size + generator.getOutputBuffered();
    }

    /** Opens a line: {@code {"seq": N, "type": "T", <the event's fields>}; end it with {@link #endLine}. */
    void startLine(long seq, EngineEvent event) {
        try {
            eventFields.open(generator, seq, event);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The generator, between {@link #startLine} and {@link #endLine}, for fields after the event's. */
    JsonGenerator fields() {
        return generator;
    }

    void endLine() {
        try {
            generator.writeEndObject();
            generator.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The CRC32C of the bytes encoded since the last {@link #reset}: the append's, up to here. */
    long checksum() {
        flush();
        return StepChecksums.of(out.bytes, 0, out.size);
    }

    /** The bytes encoded since the last {@link #reset}, valid until the next one. */
    ByteBuffer bytes() {
        flush();
        return ByteBuffer.wrap(out.bytes, 0, out.size);
    }

    private void flush() {
        try {
            generator.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A growable byte array the generator flushes into; kept at its largest size, so a step allocates nothing. */
    private static final class Buffer extends OutputStream {
        private byte[] bytes;
        private int size;

        Buffer(int capacity) {
            bytes = new byte[capacity];
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        @Override
        public void write(byte[] source, int offset, int length) {
            ensure(length);
            System.arraycopy(source, offset, bytes, size, length);
            size += length;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }
}
