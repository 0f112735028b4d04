package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.GroupTables;
import io.kvledger.domain.state.JobIds;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestControls;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The snapshot's shape of KV cache groups (contract section 7): a per-group list is the flat list for one
 * group and a list of lists for more, and every field that only a grouped engine sets is left out when it
 * is {@code null}, so the state of an engine without groups is encoded exactly as before groups existed.
 */
final class GroupedStateJson {

    private GroupedStateJson() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("kvledger-grouped-state");
        module.addSerializer((Class) PerGroup.class, new JsonSerializer<PerGroup<Object>>() {
            @Override
            public void serialize(PerGroup<Object> value, JsonGenerator out, SerializerProvider provider) throws IOException {
                if (value.groupCount() == 1) {
                    provider.defaultSerializeValue(value.group(0), out);
                } else {
                    provider.defaultSerializeValue(value.lists(), out);
                }
            }
        });
        module.addDeserializer((Class) PerGroup.class, new JsonDeserializer<PerGroup<Object>>() {
            @Override
            public PerGroup<Object> deserialize(JsonParser in, DeserializationContext context) throws IOException {
                if (in.currentToken() != JsonToken.START_ARRAY) {
                    context.reportInputMismatch(PerGroup.class, "a per-group list is an array");
                }
                JsonNode node = in.readValueAsTree();
                if (node.size() > 0 && node.get(0).isArray()) {
                    List<List<Object>> lists = new ArrayList<>();
                    for (JsonNode list : node) {
                        lists.add(values(list));
                    }
                    return PerGroup.of(lists);
                }
                return PerGroup.single(values(node));
            }
        });
        module.setMixInAnnotation(EngineConfig.class, ConfigGroups.class);
        module.setMixInAnnotation(RequestState.class, RequestGroups.class);
        module.setMixInAnnotation(EngineState.class, StateGroups.class);
        module.setMixInAnnotation(Job.class, JobGroups.class);
        return module;
    }

    private static List<Object> values(JsonNode list) {
        List<Object> values = new ArrayList<>(list.size());
        for (JsonNode value : list) {
            values.add(value.isNull() ? null : value.isTextual() ? value.textValue() : (Object) value.intValue());
        }
        return values;
    }

    private abstract static class ConfigGroups {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Object groups;
    }

    private abstract static class RequestGroups {
        /** The request is a class changed in place, no record: it is read through its full constructor. */
        @JsonCreator
        RequestGroups(@JsonProperty("requestId") String requestId, @JsonProperty("ordinal") long ordinal,
                      @JsonProperty("promptLength") int promptLength, @JsonProperty("numTokens") int numTokens,
                      @JsonProperty("computed") int computed, @JsonProperty("cursor") int cursor,
                      @JsonProperty("status") RequestStatus status, @JsonProperty("blockTable") BlockTable blockTable,
                      @JsonProperty("hashes") BlockHashes hashes, @JsonProperty("pendingMatch") PrefixMatch pendingMatch,
                      @JsonProperty("jobIds") JobIds jobIds, @JsonProperty("groups") GroupTables groups,
                      @JsonProperty("controls") RequestControls controls) {
        }

        @JsonInclude(JsonInclude.Include.NON_NULL)
        Object groups;

        /** A request's controls (contract 9.1) only when given, so a snapshot without them is as before. */
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Object controls;
    }

    private abstract static class StateGroups {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Object windowHolds;
    }

    private abstract static class JobGroups {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Object groupCursorsBefore;
    }
}
