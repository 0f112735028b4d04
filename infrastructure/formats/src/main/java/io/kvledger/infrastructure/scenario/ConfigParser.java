package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.infrastructure.json.EnumNames;
import io.kvledger.infrastructure.json.JsonProblems;
import java.util.Iterator;
import java.util.Map;

/** The config line (contract section 2): every field optional, any unknown field or bad value is fatal. */
final class ConfigParser {

    private ConfigParser() {
    }

    static EngineConfig parse(JsonNode config) {
        if (!config.isObject()) {
            throw new IllegalArgumentException("config must be a JSON object");
        }
        EngineConfig result = EngineConfig.DEFAULTS;
        java.util.List<io.kvledger.domain.config.KvCacheGroup> groups = null;
        Iterator<Map.Entry<String, JsonNode>> fields = config.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            result = switch (field.getKey()) {
                case "gpuBlockSize" -> result.withGpuBlockSize(intAtLeast("gpuBlockSize", value, 1));
                case "blocksPerChunk" -> result.withBlocksPerChunk(intAtLeast("blocksPerChunk", value, 1));
                case "workers" -> result.withWorkers(intAtLeast("workers", value, 1));
                case "cpuCapacityChunks" -> result.withCpuCapacityChunks(intAtLeast("cpuCapacityChunks", value, 0));
                case "releasePolicy" -> result.withReleasePolicy(releasePolicy(value));
                case "maxOffloadTokens" -> result.withMaxOffloadTokens(
                        value.isNull() ? null : intAtLeast("maxOffloadTokens", value, 0));
                case "offloadPromptOnly" -> result.withOffloadPromptOnly(bool("offloadPromptOnly", value));
                case "groups" -> {
                    groups = GroupsParser.parse(value);
                    yield result;
                }
                default -> throw new IllegalArgumentException("unknown config field " + io.kvledger.domain.UnicodeText.escapeLoneSurrogates(field.getKey()));
            };
        }
        if (groups != null) {
            if (config.has("gpuBlockSize")) {
                throw new IllegalArgumentException("config fields groups and gpuBlockSize may not be given together");
            }
            if (result.blocksPerChunk() > 1 && groups.stream().anyMatch(io.kvledger.domain.config.KvCacheGroup::isSliding)) {
                throw new IllegalArgumentException("config field blocksPerChunk must be 1 with a SLIDING_WINDOW group, was "
                        + result.blocksPerChunk());
            }
            try {
                result = result.withGroups(groups);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("config field groups: " + e.getMessage());
            }
        }
        return result;
    }

    static int intAtLeast(String field, JsonNode value, int min) {
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < min) {
            String problem = value.isIntegralNumber() && value.canConvertToInt()
                    ? field + " must be an integer >= " + min + ", was " + value
                    : JsonProblems.integerProblem(field, value, min, Integer.MAX_VALUE).orElseThrow();
            throw new IllegalArgumentException("config field " + problem);
        }
        return value.intValue();
    }

    private static ReleasePolicy releasePolicy(JsonNode value) {
        return EnumNames.parse(ReleasePolicy.class, value).orElseThrow(() -> new IllegalArgumentException(
                "config field releasePolicy must be " + EnumNames.quoted(ReleasePolicy.class) + ", was " + JsonProblems.show(value)));
    }

    static boolean bool(String field, JsonNode value) {
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("config field " + field + " must be true or false, was " + JsonProblems.show(value));
        }
        return value.booleanValue();
    }
}
