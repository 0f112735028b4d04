package io.kvledger.infrastructure.trace;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes Chrome Trace Event Format events (the JSON that Perfetto and chrome://tracing open) one at
 * a time through a Jackson generator, so a trace is never held in memory. Times are microseconds.
 * Phases used: {@code M} metadata, {@code B}/{@code E} slices of a thread, {@code b}/{@code e} async
 * slices matched by category and id, {@code i} instants, {@code C} counters.
 */
final class TraceEvents implements AutoCloseable {

    /** Writes an event's {@code args} object's fields. */
    @FunctionalInterface
    interface Args {
        Args NONE = g -> { };

        void write(JsonGenerator g) throws IOException;
    }

    /** Gives the generator a codec, so an event's fields can be copied from the log as trees. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET).build();

    private final JsonGenerator g;
    private long written;

    TraceEvents(OutputStream out) throws IOException {
        this.g = MAPPER.createGenerator(out, JsonEncoding.UTF8);
        g.writeStartObject();
        g.writeArrayFieldStart("traceEvents");
    }

    long written() {
        return written;
    }

    void processName(int pid, String name, int sortIndex) throws IOException {
        metadata(pid, 0, "process_name", "name", name);
        start("M", "process_sort_index", pid, 0);
        g.writeObjectFieldStart("args");
        g.writeNumberField("sort_index", sortIndex);
        g.writeEndObject();
        finish();
    }

    void threadName(int pid, int tid, String name) throws IOException {
        metadata(pid, tid, "thread_name", "name", name);
    }

    void begin(int pid, int tid, String name, long ts, Args args) throws IOException {
        start("B", name, pid, tid);
        g.writeNumberField("ts", ts);
        args(args);
        finish();
    }

    void end(int pid, int tid, long ts, Args args) throws IOException {
        start("E", null, pid, tid);
        g.writeNumberField("ts", ts);
        args(args);
        finish();
    }

    void asyncBegin(int pid, String cat, String name, long id, long ts, Args args) throws IOException {
        async("b", pid, cat, name, id, ts, args);
    }

    void asyncEnd(int pid, String cat, String name, long id, long ts, Args args) throws IOException {
        async("e", pid, cat, name, id, ts, args);
    }

    /** @param scope {@code t} (thread), {@code p} (process) or {@code g} (global) */
    void instant(int pid, int tid, String name, long ts, String scope, Args args) throws IOException {
        start("i", name, pid, tid);
        g.writeNumberField("ts", ts);
        g.writeStringField("s", scope);
        args(args);
        finish();
    }

    void counter(int pid, String name, long ts, String[] series, long[] values) throws IOException {
        start("C", name, pid, 0);
        g.writeNumberField("ts", ts);
        g.writeObjectFieldStart("args");
        for (int i = 0; i < series.length; i++) {
            g.writeNumberField(series[i], values[i]);
        }
        g.writeEndObject();
        finish();
    }

    /** Ends the event array and writes the trace's own metadata as {@code otherData}. */
    void finishTrace(Args otherData) throws IOException {
        g.writeEndArray();
        g.writeObjectFieldStart("otherData");
        otherData.write(g);
        g.writeEndObject();
        g.writeEndObject();
        g.flush();
    }

    @Override
    public void close() throws IOException {
        g.close();
    }

    private void async(String ph, int pid, String cat, String name, long id, long ts, Args args) throws IOException {
        start(ph, name, pid, 0);
        g.writeStringField("cat", cat);
        g.writeNumberField("id", id); // a number: Perfetto reads a string id as hex
        g.writeNumberField("ts", ts);
        args(args);
        finish();
    }

    private void metadata(int pid, int tid, String name, String key, String value) throws IOException {
        start("M", name, pid, tid);
        g.writeObjectFieldStart("args");
        g.writeStringField(key, value);
        g.writeEndObject();
        finish();
    }

    private void start(String ph, String name, int pid, int tid) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", ph);
        if (name != null) {
            g.writeStringField("name", name);
        }
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
    }

    private void args(Args args) throws IOException {
        if (args == Args.NONE) {
            return;
        }
        g.writeObjectFieldStart("args");
        args.write(g);
        g.writeEndObject();
    }

    private void finish() throws IOException {
        g.writeEndObject();
        written++;
    }
}
