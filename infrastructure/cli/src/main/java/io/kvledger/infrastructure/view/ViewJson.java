package io.kvledger.infrastructure.view;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kvledger.infrastructure.json.GroupFieldsJson;
import java.io.IOException;
import java.io.Writer;

/** The JSON of the log tools' {@code --json}: records written in component order, indented, never closing stdout. */
public final class ViewJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            // A view's config without groups is written as before groups existed (contract 7.0).
            .addModule(GroupFieldsJson.module())
            // A job's or a request's parts per group are written for a grouped log only.
            .addMixIn(io.kvledger.application.explain.StoreExplanation.class, GroupsWhenGrouped.class)
            .addMixIn(io.kvledger.application.explain.LoadExplanation.class, GroupsWhenGrouped.class)
            .addMixIn(io.kvledger.application.audit.JudgementView.RequestBefore.class, GroupsWhenGrouped.class)
            // A finding is written with its class (contract 9.2), after its reason.
            .addMixIn(io.kvledger.application.finding.Finding.class, FindingWithClass.class)
            .addMixIn(io.kvledger.application.finding.RuleClass.class, RuleClassLabel.class)
            // A request's controls (contract 9.1): only those given.
            .addMixIn(io.kvledger.domain.state.RequestControls.class, OnlyGiven.class)
            .addMixIn(io.kvledger.application.explain.StoreExplanation.TokenBound.class, RequestCapWhenGiven.class)
            .build();

    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    private abstract static class OnlyGiven {
    }

    private abstract static class RequestCapWhenGiven {
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        abstract Integer requestMaxOffloadTokens();
    }

    private abstract static class FindingWithClass {
        @com.fasterxml.jackson.annotation.JsonIgnore
        abstract boolean isSafety();

        @com.fasterxml.jackson.annotation.JsonProperty("ruleClass")
        abstract io.kvledger.application.finding.RuleClass ruleClass();
    }

    private abstract static class RuleClassLabel {
        @com.fasterxml.jackson.annotation.JsonValue
        abstract String label();
    }

    private abstract static class GroupsWhenGrouped {
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        abstract Object groups();
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
