package io.kvledger.simulation.shrink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.config.EngineConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Reduces a scenario that shows something (the oracle says what) to a small one that still does:
 * the shortest prefix first (cheap, and the failure usually comes early), then whole requests, then
 * delta debugging (ddmin) over the command lines, then simpler numbers in each line and in the config, then short request
 * ids; again until nothing changes. The result is 1-minimal: removing any one line loses the failure.
 */
public final class Shrinker {

    /** The shrunk scenario, and the work it took. */
    public record Result(Scenario scenario, int originalLines, int oracleRuns) {
    }

    private final ScenarioOracle oracle;
    private int runs;
    private Scenario shown;

    public Shrinker(ScenarioOracle oracle) {
        this.oracle = oracle;
    }

    /** @throws IllegalArgumentException when the scenario does not show what is being shrunk for */
    public Result shrink(Scenario scenario) {
        runs = 0;
        Scenario anchored = JobAnchors.anchor(scenario);
        if (!shows(anchored)) {
            throw new IllegalArgumentException("the scenario does not show it; nothing to shrink");
        }
        Scenario current = shortestPrefix(shown);
        Scenario before;
        do {
            before = current;
            current = withoutWholeRequests(current);
            current = ddmin(current);
            current = simplerLines(current);
            current = simplerConfig(current);
            current = shortIds(current);
        } while (!current.equals(before));
        return new Result(JobAnchors.strip(current), scenario.size(), runs);
    }

    /**
     * Whether the candidate, its completions renumbered onto their jobs, shows it. When it does, the
     * renumbered candidate, its completions anchored to the jobs they name in it, is {@link #shown}, and
     * that is what the caller keeps.
     */
    private boolean shows(Scenario candidate) {
        runs++;
        Scenario renumbered = JobAnchors.renumber(candidate);
        if (oracle.shows(renumbered)) {
            shown = JobAnchors.reanchor(renumbered);
            return true;
        }
        return false;
    }

    /** Binary search for the shortest prefix that still shows it. */
    private Scenario shortestPrefix(Scenario scenario) {
        int low = 0;
        int high = scenario.size();
        Scenario shortest = scenario;
        while (low < high) {
            int middle = (low + high) / 2;
            if (shows(scenario.withLines(scenario.lines().subList(0, middle)))) {
                high = middle;
                shortest = shown;
            } else {
                low = middle + 1;
            }
        }
        return shortest;
    }

    /** Every line of one request removed at once, request by request: few runs take out most of a long scenario. */
    private Scenario withoutWholeRequests(Scenario scenario) {
        Scenario current = scenario;
        List<String> ids = scenario.lines().stream().map(line -> line.get("requestId"))
                .filter(id -> id != null && id.isTextual()).map(JsonNode::textValue).distinct().toList();
        for (String id : ids) {
            List<ObjectNode> kept = current.lines().stream()
                    .filter(line -> line.get("requestId") == null || !id.equals(line.get("requestId").asText())).toList();
            if (kept.size() < current.size() && shows(current.withLines(kept))) {
                current = shown;
            }
        }
        return current;
    }

    /** Zeller and Hildebrandt's ddmin over the command lines. */
    private Scenario ddmin(Scenario scenario) {
        List<ObjectNode> lines = scenario.lines();
        int parts = 2;
        while (lines.size() >= 2) {
            List<List<ObjectNode>> chunks = split(lines, parts);
            List<ObjectNode> reduced = null;
            for (List<ObjectNode> chunk : chunks) {
                if (shows(scenario.withLines(chunk))) {
                    reduced = shown.lines();
                    parts = 2;
                    break;
                }
            }
            if (reduced == null && parts > 2) {
                for (int i = 0; i < chunks.size() && reduced == null; i++) {
                    List<ObjectNode> complement = new ArrayList<>(lines.size());
                    for (int j = 0; j < chunks.size(); j++) {
                        if (j != i) {
                            complement.addAll(chunks.get(j));
                        }
                    }
                    if (shows(scenario.withLines(complement))) {
                        reduced = shown.lines();
                        parts = Math.max(parts - 1, 2);
                    }
                }
            }
            if (reduced != null) {
                lines = reduced;
            } else if (parts >= lines.size()) {
                break;
            } else {
                parts = Math.min(parts * 2, lines.size());
            }
        }
        return scenario.withLines(lines);
    }

    private static List<List<ObjectNode>> split(List<ObjectNode> lines, int parts) {
        List<List<ObjectNode>> chunks = new ArrayList<>(parts);
        int start = 0;
        for (int i = 0; i < parts; i++) {
            int end = start + (lines.size() - start) / (parts - i);
            chunks.add(lines.subList(start, end));
            start = end;
        }
        return chunks;
    }

    /** Each line replaced by its simplest variant that still shows it, until none is simpler. */
    private Scenario simplerLines(Scenario scenario) {
        List<ObjectNode> lines = new ArrayList<>(scenario.lines());
        for (int i = 0; i < lines.size(); i++) {
            boolean changed = true;
            while (changed) {
                changed = false;
                for (ObjectNode variant : LineVariants.of(lines.get(i))) {
                    List<ObjectNode> candidate = new ArrayList<>(lines);
                    candidate.set(i, variant);
                    if (shows(scenario.withLines(candidate))) {
                        lines = new ArrayList<>(shown.lines());
                        changed = true;
                        break;
                    }
                }
            }
        }
        return scenario.withLines(lines);
    }

    /** Config fields back to their defaults where that still shows it (block size and capacity stay). */
    private Scenario simplerConfig(Scenario scenario) {
        EngineConfig defaults = EngineConfig.DEFAULTS;
        List<UnaryOperator<EngineConfig>> simplifications = List.of(
                c -> c.withWorkers(defaults.workers()), c -> c.withReleasePolicy(defaults.releasePolicy()),
                c -> c.withMaxOffloadTokens(defaults.maxOffloadTokens()),
                c -> c.withOffloadPromptOnly(defaults.offloadPromptOnly()),
                c -> c.withBlocksPerChunk(defaults.blocksPerChunk()));
        Scenario current = scenario;
        for (UnaryOperator<EngineConfig> simpler : simplifications) {
            EngineConfig candidate = simpler.apply(current.config());
            if (!candidate.equals(current.config()) && shows(current.withConfig(candidate))) {
                current = shown;
            }
        }
        return current;
    }

    /** Request ids renamed r0, r1, ... in order of first appearance, if that still shows it. */
    private Scenario shortIds(Scenario scenario) {
        Map<String, String> names = new LinkedHashMap<>();
        List<ObjectNode> lines = new ArrayList<>();
        for (ObjectNode line : scenario.lines()) {
            JsonNode id = line.get("requestId");
            if (id != null && id.isTextual()) {
                String name = names.computeIfAbsent(id.textValue(), old -> "r" + names.size());
                lines.add(line.deepCopy().put("requestId", name));
            } else {
                lines.add(line);
            }
        }
        Scenario renamed = scenario.withLines(lines);
        return !renamed.equals(scenario) && shows(renamed) ? shown : scenario;
    }
}
