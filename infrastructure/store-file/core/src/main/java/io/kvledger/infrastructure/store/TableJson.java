package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.JobIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A request's block tables and job ids in a snapshot, as they were written while they were Vavr
 * collections: a table is an array of block ids and {@code null}s in table order, the job ids an array
 * ascending.
 */
final class TableJson {

    private TableJson() {
    }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("kvledger-tables");
        module.addSerializer(BlockTable.class, new JsonSerializer<>() {
            @Override
            public void serialize(BlockTable table, JsonGenerator out, SerializerProvider provider) throws IOException {
                out.writeStartArray();
                for (int i = 0; i < table.size(); i++) {
                    Integer block = table.get(i);
                    if (block == null) {
                        out.writeNull();
                    } else {
                        out.writeNumber(block);
                    }
                }
                out.writeEndArray();
            }
        });
        module.addDeserializer(BlockTable.class, new JsonDeserializer<>() {
            @Override
            public BlockTable deserialize(JsonParser in, DeserializationContext context) throws IOException {
                List<Integer> blocks = new ArrayList<>();
                for (JsonToken token = start(in, context, BlockTable.class); token != JsonToken.END_ARRAY; token = in.nextToken()) {
                    blocks.add(context.readValue(in, Integer.class));
                }
                return BlockTable.of(blocks);
            }
        });
        module.addSerializer(JobIds.class, new JsonSerializer<>() {
            @Override
            public void serialize(JobIds ids, JsonGenerator out, SerializerProvider provider) throws IOException {
                out.writeStartArray();
                for (int i = 0; i < ids.size(); i++) {
                    out.writeNumber(ids.get(i));
                }
                out.writeEndArray();
            }
        });
        module.addDeserializer(JobIds.class, new JsonDeserializer<>() {
            @Override
            public JobIds deserialize(JsonParser in, DeserializationContext context) throws IOException {
                List<Long> ids = new ArrayList<>();
                for (JsonToken token = start(in, context, JobIds.class); token != JsonToken.END_ARRAY; token = in.nextToken()) {
                    Long id = context.readValue(in, Long.class);
                    if (id == null) {
                        context.reportInputMismatch(JobIds.class, "a job id is never null");
                    }
                    ids.add(id);
                }
                return JobIds.of(ids);
            }
        });
        return module;
    }

    /** The first token inside the array the parser is at. */
    private static JsonToken start(JsonParser in, DeserializationContext context, Class<?> type) throws IOException {
        if (in.currentToken() != JsonToken.START_ARRAY) {
            context.reportInputMismatch(type, "expected " + JsonToken.START_ARRAY + ", was " + in.currentToken());
        }
        return in.nextToken();
    }
}
