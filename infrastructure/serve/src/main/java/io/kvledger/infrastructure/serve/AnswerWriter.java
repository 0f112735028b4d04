package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Encodes answers, one JSON line each, into a buffer reused from answer to answer. A step's answer holds
 * each event once; the groups a host acts on (store and load jobs, flushes, releases, rejections) are
 * positions in {@code events}, so nothing is encoded twice. Not thread-safe: one per session.
 */
final class AnswerWriter {

    private static final JsonFactory FACTORY = EventJson.mapper().getFactory();

    private final Buffer buffer = new Buffer();
    private final EventEncoder events = new EventEncoder();
    private final int[] groupSizes = new int[GROUPS.length];
    private int[][] groups = new int[GROUPS.length][64];

    private static final String[] GROUPS = {"storeJobs", "loadJobs", "flushes", "releases", "rejections"};

    /**
     * The answer to a step whose first event has {@code firstSeq}; with {@code grouped}, only the events of
     * the groups (still with their own seq); with {@code timing}, the server's times too.
     */
    void step(long stepNumber, long firstSeq, List<EngineEvent> stepEvents, boolean grouped, Timing timing)
            throws IOException {
        buffer.reset();
        java.util.Arrays.fill(groupSizes, 0);
        try (JsonGenerator out = generator()) {
            out.writeStartObject();
            out.writeNumberField("step", stepNumber);
            out.writeArrayFieldStart("events");
            int written = 0;
            for (int i = 0; i < stepEvents.size(); i++) {
                EngineEvent event = stepEvents.get(i);
                int group = groupOf(event);
                if (group >= 0 || !grouped) {
                    events.write(out, firstSeq + i, event);
                    if (group >= 0) {
                        add(group, written);
                    }
                    written++;
                }
            }
            long seq = firstSeq + stepEvents.size();
            out.writeEndArray();
            for (int g = 0; g < GROUPS.length; g++) {
                out.writeFieldName(GROUPS[g]);
                out.writeArray(groups[g], 0, groupSizes[g]);
            }
            out.writeNumberField("lastSeq", seq - 1);
            if (timing != null) {
                long encodeNanos = System.nanoTime() - timing.encodeStart();
                out.writeObjectFieldStart("timing");
                out.writeNumberField("parseNanos", timing.parseNanos());
                out.writeNumberField("stepNanos", timing.stepNanos());
                out.writeNumberField("encodeNanos", encodeNanos);
                out.writeEndObject();
            }
            out.writeEndObject();
        }
        buffer.write('\n');
    }

    /**
     * What the server spent on a step: parsing and checking the request line, the engine's step (the
     * in-process cost a JVM host pays), and encoding the answer (from {@code encodeStart}, a nanoTime).
     */
    record Timing(long parseNanos, long stepNanos, long encodeStart) {
    }

    /** The answer to a hello: the protocol version, the engine's config as its first event, and where the log is. */
    void hello(HelloAnswer answer) throws IOException {
        buffer.reset();
        try (JsonGenerator out = generator()) {
            out.writeStartObject();
            out.writeObjectFieldStart("hello");
            out.writeNumberField("protocol", ServeProtocol.VERSION);
            out.writeStringField("server", answer.server());
            out.writeStringField("engineId", answer.engineId());
            out.writeBooleanField("resumed", answer.resumed());
            out.writeNumberField("lastSeq", answer.lastSeq());
            out.writeNumberField("steps", answer.steps());
            out.writeFieldName("config");
            events.write(out, 1, answer.configured());
            out.writeEndObject();
            out.writeEndObject();
        }
        buffer.write('\n');
    }

    void error(ProtocolError error) throws IOException {
        buffer.reset();
        try (JsonGenerator out = generator()) {
            out.writeStartObject();
            out.writeObjectFieldStart("error");
            out.writeStringField("code", error.code().name());
            out.writeStringField("message", error.message());
            if (error.index() >= 0) {
                out.writeNumberField("index", error.index());
            }
            out.writeEndObject();
            out.writeEndObject();
        }
        buffer.write('\n');
    }

    /** Writes the answer last encoded, as one write. */
    void sendTo(OutputStream out) throws IOException {
        out.write(buffer.bytes(), 0, buffer.size());
        out.flush();
    }

    /** The answer last encoded, as text (for tests and the docs). */
    String text() {
        return buffer.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private JsonGenerator generator() throws IOException {
        return FACTORY.createGenerator(buffer, JsonEncoding.UTF8);
    }

    private static int groupOf(EngineEvent event) {
        if (event instanceof StoreJobScheduled) {
            return 0;
        }
        if (event instanceof LoadJobScheduled) {
            return 1;
        }
        if (event instanceof FlushRequired) {
            return 2;
        }
        if (event instanceof BlocksReleased) {
            return 3;
        }
        if (event instanceof CommandRejected) {
            return 4;
        }
        return -1;
    }

    private void add(int group, int index) {
        if (groupSizes[group] == groups[group].length) {
            groups[group] = java.util.Arrays.copyOf(groups[group], groups[group].length * 2);
        }
        groups[group][groupSizes[group]++] = index;
    }

    /** A byte buffer whose array is written out without a copy. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer() {
            super(64 * 1024);
        }

        byte[] bytes() {
            return buf;
        }
    }

    /** What a hello is answered with. */
    record HelloAnswer(String server, String engineId, boolean resumed, long lastSeq, long steps,
                       io.kvledger.domain.event.EngineConfigured configured) {
    }
}
