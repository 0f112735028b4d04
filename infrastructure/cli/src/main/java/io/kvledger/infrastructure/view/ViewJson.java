package io.kvledger.infrastructure.view;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/** The JSON of the log tools' {@code --json}: records written in component order, indented, never closing stdout. */
public final class ViewJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .addMixIn(EngineConfig.class, ConfigAsEchoed.class)
            .addMixIn(KvCacheGroup.class, GroupAsEchoed.class)
            .build();

    /**
     * {@code config} holds the {@code EngineConfigured} fields: {@code groups} only when the log gives groups
     * (so a log without them prints what it did before groups), never the derived {@code grouped}.
     */
    private abstract static class ConfigAsEchoed {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract List<KvCacheGroup> groups();

        @JsonIgnore
        abstract boolean isGrouped();
    }

    /** A group as {@code EngineConfigured} echoes it (contract 7.1): {@code slidingWindow} only for a sliding group. */
    private abstract static class GroupAsEchoed {
        @JsonInclude(JsonInclude.Include.NON_NULL)
        abstract Integer slidingWindow();

        @JsonIgnore
        abstract boolean isSliding();
    }

    private ViewJson() {
    }

    public static String write(Object view) {
        try {
            return MAPPER.writeValueAsString(view);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + view.getClass().getSimpleName(), e);
        }
    }

    /** A generator for a document written piece by piece, so a long one is never held whole. */
    public static JsonGenerator stream(Writer out) throws IOException {
        return MAPPER.createGenerator(out);
    }
}
