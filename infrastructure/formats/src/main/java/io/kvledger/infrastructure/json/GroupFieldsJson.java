package io.kvledger.infrastructure.json;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.group.PerGroup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How the KV cache groups of contract section 7 are written: a per-group field as the flat list for one
 * group and a list of lists for two or more (7.2), {@code EngineConfigured.groups} only when the config
 * gave it, and a group object with {@code slidingWindow} only for a sliding group (7.1).
 */
public final class GroupFieldsJson {

    private GroupFieldsJson() {
    }

    public static Module module() {
        SimpleModule module = new SimpleModule("kvledger-groups");
        module.addSerializer(PerGroup.class, new PerGroupSerializer());
        module.addDeserializer(PerGroup.class, new PerGroupDeserializer());
        module.setMixInAnnotation(EngineConfigured.class, EngineConfiguredFields.class);
        module.setMixInAnnotation(io.kvledger.domain.event.RequestRegistered.class, RequestRegisteredFields.class);
        module.setMixInAnnotation(KvCacheGroup.class, GroupFields.class);
        module.setMixInAnnotation(io.kvledger.domain.config.EngineConfig.class, ConfigFields.class);
        module.setMixInAnnotation(io.kvledger.domain.state.RequestState.class, RequestFields.class);
        module.setMixInAnnotation(io.kvledger.domain.state.Job.class, JobFields.class);
        module.setMixInAnnotation(io.kvledger.domain.state.EngineState.class, StateFields.class);
        return module;
    }

    @SuppressWarnings("rawtypes")
    private static final class PerGroupSerializer extends JsonSerializer<PerGroup> {
        @Override
        public void serialize(PerGroup value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (value.groupCount() == 1) {
                writeList(value.group(0), out);
                return;
            }
            out.writeStartArray();
            for (Object list : value.lists()) {
                writeList((List<?>) list, out);
            }
            out.writeEndArray();
        }

        private static void writeList(List<?> list, JsonGenerator out) throws IOException {
            out.writeStartArray();
            for (Object entry : list) {
                if (entry == null) {
                    out.writeNull();
                } else if (entry instanceof Integer i) {
                    out.writeNumber(i);
                } else {
                    out.writeString(entry.toString());
                }
            }
            out.writeEndArray();
        }
    }

    /** Reads what {@link PerGroupSerializer} writes: an array of arrays is one list per group, else one group's. */
    @SuppressWarnings("rawtypes")
    private static final class PerGroupDeserializer extends JsonDeserializer<PerGroup> {
        @Override
        public PerGroup deserialize(JsonParser in, DeserializationContext context) throws IOException {
            JsonNode node = in.readValueAsTree();
            if (node == null || !node.isArray()) {
                return (PerGroup) context.handleUnexpectedToken(PerGroup.class, in);
            }
            if (node.size() > 0 && node.get(0).isArray()) {
                List<List<Object>> lists = new ArrayList<>(node.size());
                for (JsonNode list : node) {
                    lists.add(entries(list));
                }
                return PerGroup.of(lists);
            }
            return PerGroup.single(entries(node));
        }

        private static List<Object> entries(JsonNode list) {
            List<Object> entries = new ArrayList<>(list.size());
            for (JsonNode entry : list) {
                entries.add(entry.isNull() ? null : entry.isTextual() ? entry.textValue() : (Object) entry.intValue());
            }
            return entries;
        }
    }

    /** {@code groups} and {@code producer} (contract 9.3, written last) only when given. */
    private abstract static class EngineConfiguredFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract List<KvCacheGroup> groups();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract String producer();
    }

    /** The controls of contract 9.1 only when the command gave them, so a log without them is a revision-5 log. */
    private abstract static class RequestRegisteredFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Integer maxOffloadTokens();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Integer maxLoadTokens();

        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Boolean skipReadingPrefixCache();
    }

    /** A config written whole (a view's): {@code groups} only when given, nothing derived. */
    @JsonIgnoreProperties({"grouped"})
    private abstract static class ConfigFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract List<KvCacheGroup> groups();
    }

    /** State written whole (a view's): the fields only a grouped engine or a request's controls set are left out when null. */
    @JsonPropertyOrder({"requestId", "ordinal", "promptLength", "numTokens", "computed", "cursor", "status", "blockTable",
        "hashes", "pendingMatch", "jobIds", "groups", "controls"})
    private abstract static class RequestFields {
        // The request is a class changed in place, no record: its accessors are named as properties here.
        @JsonProperty abstract Object requestId();

        @JsonProperty abstract long ordinal();

        @JsonProperty abstract int promptLength();

        @JsonProperty abstract int numTokens();

        @JsonProperty abstract int computed();

        @JsonProperty abstract int cursor();

        @JsonProperty abstract Object status();

        @JsonProperty abstract Object blockTable();

        @JsonProperty abstract Object hashes();

        @JsonProperty abstract Object pendingMatch();

        @JsonProperty abstract Object jobIds();

        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Object groups();

        @JsonProperty
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Object controls();
    }

    private abstract static class JobFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract List<Integer> groupCursorsBefore();
    }

    private abstract static class StateFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Object windowHolds();
    }

    @JsonIgnoreProperties({"sliding"})
    private abstract static class GroupFields {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Integer slidingWindow();
    }
}
