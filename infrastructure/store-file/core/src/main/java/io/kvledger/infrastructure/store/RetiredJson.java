package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.RetiredRequests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The retired requests in a snapshot, in the shape they had as a record of a map and a queue: {@code capacity},
 * {@code statuses} (id and status pairs, ids ascending; any order read), {@code order} (the ids, retired longest
 * ago first) and {@code forgotten}, in that order. They now keep flat arrays of their own, so this writes the
 * shape from what it reads; reading refuses an order and statuses that disagree.
 */
final class RetiredJson {

    private RetiredJson() {
    }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("kvledger-retired");
        module.addSerializer(RetiredRequests.class, new JsonSerializer<>() {
            @Override
            public void serialize(RetiredRequests retired, JsonGenerator out, SerializerProvider provider) throws IOException {
                out.writeStartObject();
                out.writeNumberField("capacity", retired.capacity());
                out.writeFieldName("statuses");
                out.writeStartArray();
                IOException[] failed = {null};
                retired.forEach((id, status) -> {
                    try {
                        out.writeStartArray();
                        out.writeString(id);
                        provider.defaultSerializeValue(status, out);
                        out.writeEndArray();
                    } catch (IOException e) {
                        failed[0] = failed[0] == null ? e : failed[0];
                    }
                });
                if (failed[0] != null) {
                    throw failed[0];
                }
                out.writeEndArray();
                out.writeFieldName("order");
                out.writeStartArray();
                for (String id : retired.oldestFirst()) {
                    out.writeString(id);
                }
                out.writeEndArray();
                out.writeNumberField("forgotten", retired.forgotten());
                out.writeEndObject();
            }
        });
        module.addDeserializer(RetiredRequests.class, new JsonDeserializer<>() {
            @Override
            public RetiredRequests deserialize(JsonParser in, DeserializationContext context) throws IOException {
                if (in.currentToken() != JsonToken.START_OBJECT) {
                    context.reportInputMismatch(RetiredRequests.class, "the retired requests are an object");
                }
                JavaType pairs = context.getTypeFactory().constructCollectionType(List.class,
                        context.getTypeFactory().constructCollectionType(List.class, String.class));
                JavaType ids = context.getTypeFactory().constructCollectionType(List.class, String.class);
                Integer capacity = null;
                Long forgotten = null;
                List<List<String>> statuses = null;
                List<String> order = null;
                for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
                    in.nextToken();
                    switch (field) {
                        case "capacity" -> capacity = in.getIntValue();
                        case "forgotten" -> forgotten = in.getLongValue();
                        case "statuses" -> statuses = context.readValue(in, pairs);
                        case "order" -> order = context.readValue(in, ids);
                        default -> context.reportInputMismatch(RetiredRequests.class, "the retired requests have no field " + field);
                    }
                }
                if (capacity == null || forgotten == null || statuses == null || order == null) {
                    context.reportInputMismatch(RetiredRequests.class,
                            "the retired requests need capacity, statuses, order and forgotten");
                }
                Map<String, RequestStatus> byId = new LinkedHashMap<>();
                for (List<String> pair : statuses) {
                    if (pair == null || pair.size() != 2 || pair.get(0) == null || pair.get(1) == null) {
                        context.reportInputMismatch(RetiredRequests.class, "a retired status is an [id, status] pair, was " + pair);
                    }
                    RequestStatus status = null;
                    try {
                        status = RequestStatus.valueOf(pair.get(1));
                    } catch (IllegalArgumentException e) {
                        context.reportInputMismatch(RetiredRequests.class, "no request status " + pair.get(1));
                    }
                    byId.put(pair.get(0), status);
                }
                try {
                    return RetiredRequests.of(capacity, new ArrayList<>(order), byId, forgotten);
                } catch (IllegalArgumentException e) {
                    return context.reportInputMismatch(RetiredRequests.class, e.getMessage());
                }
            }
        });
        return module;
    }
}
