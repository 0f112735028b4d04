package io.kvledger.infrastructure.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.LogEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares two logs of the same commands (kvledger's run of a captured scenario, and the engine's own
 * captured decisions) unit by unit. A unit is a fact (an event that records a command: a registration,
 * a match's answer, an allocation, tokens, a completion, a preemption, an abort or finish, a reset, or a
 * rejection of the command) with the decisions that follow it up to the next fact (jobs, flushes,
 * releases, stores, evictions, deferrals). Facts are compared one by one. Decisions are compared as a
 * multiset per unit, or, when the second log says which scheduler step each event belongs to (a
 * {@code step} field, as captured logs have), per step: an engine decides a step's jobs together, after
 * all of the step's facts, so their order inside a step says nothing. Keys, which differ between
 * implementations, are compared by the first request chunk each log names them for (with KV cache groups,
 * the request, group and chunk: contract 7.2's per-group {@code keys} and {@code chunkIndices}).
 */
final class LogDiff {

    private static final Set<String> FACTS = Set.of("EngineConfigured", "RequestRegistered", "PrefixMatched",
            "PrefixMatchDeferred", "BlocksAllocated", "TokensComputed", "TokensRejected", "TokensAppended",
            "StoreJobCompleted", "LoadJobCompleted", "TransferAcknowledged", "RequestPreempted", "RequestAborted",
            "RequestFinished", "CacheReset", "CommandRejected");
    /** Fields that say where an event is, not what it is (and {@code producer}: who wrote the log, contract 9.3). */
    private static final Set<String> POSITION = Set.of("seq", "step", "envelope", "message", "line", "producer");

    /** One fact and the decisions after it. */
    record Unit(LogEntry fact, List<LogEntry> decisions, List<JsonNode> normalizedDecisions, JsonNode normalizedFact) {
    }

    /**
     * The first unit where the logs differ, and the step it belongs to (-1 when the logs have none); for a
     * difference of decisions, the units of that step.
     */
    record Difference(int unit, long step, List<Unit> left, List<Unit> right) {
    }

    private final List<LogEntry> facts = new ArrayList<>();
    private final List<List<LogEntry>> decided = new ArrayList<>();
    private final Map<String, String> keyNames = new HashMap<>();
    private LogEntry fact;
    private List<LogEntry> decisions = new ArrayList<>();

    void add(LogEntry entry) {
        if (FACTS.contains(entry.type())) {
            close();
            fact = entry;
        } else {
            learnKeys(entry.raw());
            decisions.add(entry);
        }
    }

    /** The units of the log read so far; keys are named once the whole log is known. */
    List<Unit> units() {
        close();
        List<Unit> units = new ArrayList<>(facts.size());
        for (int i = 0; i < facts.size(); i++) {
            List<JsonNode> normalized = new ArrayList<>();
            for (LogEntry decision : decided.get(i)) {
                normalized.add(normalize(decision.raw()));
            }
            normalized.sort((a, b) -> a.toString().compareTo(b.toString()));
            LogEntry unitFact = facts.get(i);
            units.add(new Unit(unitFact, decided.get(i), normalized, unitFact == null ? null : normalize(unitFact.raw())));
        }
        return units;
    }

    private void close() {
        if (fact == null && decisions.isEmpty()) {
            return;
        }
        facts.add(fact);
        decided.add(decisions);
        fact = null;
        decisions = new ArrayList<>();
    }

    /** A job's keys name its request's chunks: remember the first name of each key. */
    private void learnKeys(ObjectNode raw) {
        JsonNode keys = raw.get("keys");
        JsonNode chunks = raw.get("chunkIndices");
        JsonNode request = raw.get("requestId");
        if (keys == null || chunks == null || request == null || keys.size() != chunks.size()) {
            return;
        }
        boolean grouped = keys.size() > 0 && keys.get(0).isArray();
        for (int g = 0; g < (grouped ? keys.size() : 1); g++) {
            JsonNode groupKeys = grouped ? keys.get(g) : keys;
            JsonNode groupChunks = grouped ? chunks.get(g) : chunks;
            String prefix = request.asText() + (grouped ? "#g" + g : "") + "#";
            for (int i = 0; i < Math.min(groupKeys.size(), groupChunks.size()); i++) {
                keyNames.putIfAbsent(groupKeys.get(i).asText(), prefix + groupChunks.get(i).asText());
            }
        }
    }

    private JsonNode normalize(ObjectNode raw) {
        ObjectNode copy = EventJson.mapper().createObjectNode();
        raw.fields().forEachRemaining(field -> {
            if (!POSITION.contains(field.getKey())) {
                copy.set(field.getKey(), field.getKey().equals("keys") ? names(field.getValue()) : field.getValue());
            }
        });
        return copy;
    }

    private JsonNode names(JsonNode keys) {
        ArrayNode out = EventJson.mapper().createArrayNode();
        keys.forEach(key -> {
            if (key.isArray()) {
                out.add(names(key)); // one group's keys
            } else {
                out.add(keyNames.getOrDefault(key.asText(), "key " + key.asText()));
            }
        });
        return out;
    }

    static Difference firstDifference(List<Unit> left, List<Unit> right) {
        int n = Math.max(left.size(), right.size());
        int groupStart = 0;
        for (int i = 0; i < n; i++) {
            Unit a = i < left.size() ? left.get(i) : null;
            Unit b = i < right.size() ? right.get(i) : null;
            if (a == null || b == null || !java.util.Objects.equals(a.normalizedFact(), b.normalizedFact())) {
                return new Difference(i, step(b), single(a), single(b));
            }
            long step = step(b);
            boolean lastOfGroup = step < 0 || i + 1 >= right.size() || step(right.get(i + 1)) != step;
            if (lastOfGroup) {
                List<Unit> leftGroup = left.subList(groupStart, Math.min(i + 1, left.size()));
                List<Unit> rightGroup = right.subList(groupStart, i + 1);
                if (!decisions(leftGroup).equals(decisions(rightGroup))) {
                    return new Difference(groupStart, step, leftGroup, rightGroup);
                }
                groupStart = i + 1;
            }
        }
        return null;
    }

    private static List<Unit> single(Unit unit) {
        return unit == null ? List.of() : List.of(unit);
    }

    private static long step(Unit unit) {
        if (unit == null || unit.fact() == null || !unit.fact().raw().has("step")) {
            return -1;
        }
        return unit.fact().raw().get("step").asLong();
    }

    private static List<String> decisions(List<Unit> units) {
        List<String> all = new ArrayList<>();
        for (Unit unit : units) {
            unit.normalizedDecisions().forEach(d -> all.add(d.toString()));
        }
        all.sort(null);
        return all;
    }
}
