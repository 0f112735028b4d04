package io.kvledger.infrastructure.log;

import static io.kvledger.infrastructure.log.FieldKind.BOOLEAN;
import static io.kvledger.infrastructure.log.FieldKind.COUNT;
import static io.kvledger.infrastructure.log.FieldKind.ENUM;
import static io.kvledger.infrastructure.log.FieldKind.ID;
import static io.kvledger.infrastructure.log.FieldKind.INT;
import static io.kvledger.infrastructure.log.FieldKind.INT_ARRAY;
import static io.kvledger.infrastructure.log.FieldKind.LONG;
import static io.kvledger.infrastructure.log.FieldKind.LONG_ARRAY;
import static io.kvledger.infrastructure.log.FieldKind.NULLABLE_INT;
import static io.kvledger.infrastructure.log.FieldKind.STRING;
import static io.kvledger.infrastructure.log.FieldKind.STRING_ARRAY;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.infrastructure.json.JsonProblems;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The required fields of each known event type and their shapes (contract section 3). A log written
 * by another implementation is held to exactly these; extra fields and unknown types are allowed.
 */
public final class EventSchema {

    /** A required field: its name, its shape and, for an {@link FieldKind#ENUM}, the allowed names. */
    record Field(String name, FieldKind kind, List<String> allowed) {
    }

    private static final Map<String, List<Field>> REQUIRED = new HashMap<>();
    /**
     * Optional fields checked when present (contract 9.1: a control out of its range makes the log malformed);
     * {@link FieldKind#COUNT} is an integer >= 0, never {@code null}.
     */
    private static final Map<String, List<Field>> OPTIONAL = new HashMap<>();

    static {
        Field requestId = field("requestId", ID);
        Field jobId = field("jobId", LONG);
        define("EngineConfigured", field("gpuBlockSize", INT), field("blocksPerChunk", INT), field("workers", INT),
                field("cpuCapacityChunks", INT), choice("releasePolicy", ReleasePolicy.class),
                field("maxOffloadTokens", NULLABLE_INT), field("offloadPromptOnly", BOOLEAN));
        define("RequestRegistered", requestId, field("promptLength", INT), field("promptTokens", INT_ARRAY));
        OPTIONAL.put("RequestRegistered", List.of(field("maxOffloadTokens", COUNT), field("maxLoadTokens", COUNT),
                field("skipReadingPrefixCache", BOOLEAN)));
        define("PrefixMatched", requestId, field("gpuHitTokens", INT), field("externalTokens", INT),
                field("hitChunks", INT_ARRAY));
        define("PrefixMatchDeferred", requestId, field("gpuHitTokens", INT),
                choice("reason", DeferReason.class));
        define("BlocksAllocated", requestId, field("blockIds", INT_ARRAY), field("externalTokens", INT));
        define("LoadJobScheduled", jobId, requestId, field("chunkIndices", INT_ARRAY), field("keys", STRING_ARRAY),
                field("blockIds", INT_ARRAY));
        define("TokensComputed", requestId, field("numComputedTokens", INT));
        define("TokensRejected", requestId, field("numComputedTokens", INT));
        define("TokensAppended", requestId, field("numTokens", INT), field("tokens", INT_ARRAY));
        define("StoreJobScheduled", jobId, requestId, field("chunkIndices", INT_ARRAY), field("keys", STRING_ARRAY),
                field("blockIds", INT_ARRAY));
        define("StoreDeferred", requestId, field("chunkIndices", INT_ARRAY), choice("reason", StoreDeferReason.class));
        define("StoreJobCompleted", jobId, requestId, field("success", BOOLEAN));
        define("LoadJobCompleted", jobId, requestId, field("success", BOOLEAN));
        define("TransferAcknowledged", jobId, requestId, field("success", BOOLEAN));
        define("ChunksStored", field("keys", STRING_ARRAY));
        define("ChunksEvicted", field("keys", STRING_ARRAY));
        define("FlushRequired", field("jobIds", LONG_ARRAY), field("blockIds", INT_ARRAY));
        define("RequestPreempted", requestId);
        define("RequestAborted", requestId);
        define("RequestFinished", requestId, choice("reason", FinishReason.class));
        define("BlocksReleased", requestId, field("blockIds", INT_ARRAY));
        define("WindowBlocksFreed", requestId, field("blockIds", INT_ARRAY));
        define("CacheReset", field("staleBelowJobId", LONG));
        define("CommandRejected", field("line", LONG), field("cmd", STRING),
                choice("code", RejectionCode.class),
                field("message", STRING));
    }

    private EventSchema() {
    }

    /** What is wrong with a line of a known type, naming the field; empty when it has every required field. */
    public static Optional<String> problem(String type, JsonNode line) {
        return problem(type, line, null);
    }

    /**
     * As {@link #problem(String, JsonNode)} for a log whose {@code EngineConfigured} gives {@code groups}
     * ({@code null}: none, revision 4's shapes): its per-group fields hold the shapes of contract 7.2.
     */
    public static Optional<String> problem(String type, JsonNode line, List<KvCacheGroup> groups) {
        List<Field> fields = REQUIRED.getOrDefault(type, List.of());
        for (Field field : fields) {
            JsonNode value = line.get(field.name());
            if (value == null) {
                return Optional.of(type + "." + field.name() + " is missing");
            }
            if (groups != null && GroupedShapes.isPerGroup(type, field.name())) {
                Optional<String> shape = GroupedShapes.problem(type, field.name(), field.kind(), value, groups);
                if (shape.isPresent()) {
                    return shape;
                }
                continue;
            }
            Optional<String> integer = switch (field.kind()) {
                case INT -> JsonProblems.integerProblem(type + "." + field.name(), value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                case LONG -> JsonProblems.integerProblem(type + "." + field.name(), value, Long.MIN_VALUE, Long.MAX_VALUE);
                case NULLABLE_INT -> value.isNull() ? Optional.empty()
                        : JsonProblems.integerProblem(type + "." + field.name(), value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                default -> Optional.empty();
            };
            if (integer.isPresent()) {
                return integer;
            }
            if (!field.kind().accepts(value, field.allowed())) {
                return Optional.of(type + "." + field.name() + " must be " + field.kind().describe(field.allowed())
                        + ", was " + JsonProblems.show(value));
            }
        }
        for (Field field : OPTIONAL.getOrDefault(type, List.of())) {
            JsonNode value = line.get(field.name());
            if (value != null && field.kind() == COUNT) {
                Optional<String> count = JsonProblems.integerProblem(type + "." + field.name(), value, 0, Integer.MAX_VALUE);
                if (count.isPresent()) {
                    return Optional.of(count.get() + " (an integer >= 0 when given)");
                }
            }
            if (value != null && !field.kind().accepts(value, field.allowed())) {
                return Optional.of(type + "." + field.name() + " must be " + field.kind().describe(field.allowed())
                        + " when given, was " + JsonProblems.show(value));
            }
        }
        return Optional.empty();
    }

    /** The required fields of a known type, in the contract's order; {@code null} for a type this version does not know. */
    static List<Field> requiredFields(String type) {
        return REQUIRED.get(type);
    }

    /** The optional fields of a type checked when present, in the contract's order (empty for most types). */
    static List<Field> optionalFields(String type) {
        return OPTIONAL.getOrDefault(type, List.of());
    }

    private static void define(String type, Field... fields) {
        REQUIRED.put(type, List.of(fields));
    }

    private static Field field(String name, FieldKind kind) {
        return new Field(name, kind, List.of());
    }

    /** The allowed names are the enum's own, in its order, so a new constant is accepted where it is read. */
    private static Field choice(String name, Class<? extends Enum<?>> values) {
        return new Field(name, ENUM, Arrays.stream(values.getEnumConstants()).map(Enum::name).toList());
    }

    static Map<String, List<String>> requiredFieldNames() {
        Map<String, List<String>> names = new LinkedHashMap<>();
        REQUIRED.forEach((type, fields) -> names.put(type, fields.stream().map(Field::name).toList()));
        return names;
    }
}
