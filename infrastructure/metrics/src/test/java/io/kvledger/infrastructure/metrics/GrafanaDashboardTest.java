package io.kvledger.infrastructure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard queries only what is really published: a ledger runs a store, a flush, a
 * load, a rejection and an eviction with {@link MicrometerStepListener} on Micrometer's Prometheus registry, and
 * every metric, label and label value the dashboard's expressions name must be in the scrape.
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("grafana/kvledger.json");
    private static final Pattern METRIC = Pattern.compile("\\b(kvledger_[a-z_]+)");
    private static final Pattern SELECTOR = Pattern.compile("(kvledger_[a-z_]+)\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("(\\w+)\\s*(=~|!=|!~|=)\\s*\"([^\"]*)\"");
    private static final Pattern BY = Pattern.compile("by \\(([^)]*)\\)\\s*\\((?:rate|increase)\\((kvledger_[a-z_]+)");
    private static final Pattern SAMPLE = Pattern.compile("^(kvledger_[a-z_]+)(?:\\{([^}]*)})? ", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** Metric name to its label names to the values seen. */
    private static final Map<String, Map<String, Set<String>>> SCRAPED = new HashMap<>();
    private static final List<String> EXPRESSIONS = new ArrayList<>();

    @BeforeAll
    static void runAndScrape() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (KvLedger ledger = KvLedger.builder().config(EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(2))
                .listener(new MicrometerStepListener(registry, "engine-0")).build()) {
            List<Integer> prompt = List.of(1, 2, 3, 4, 5, 6, 7, 8);
            ledger.step(List.of(new RegisterRequest("r1", prompt), new MatchPrefix("r1"),
                    new AllocateBlocks("r1", List.of(1, 2)), new ComputeTokens("r1", 8)));
            ledger.step(List.of(new PreemptRequest("r1")));                     // FlushRequired: its store is in flight
            ledger.step(List.of(new CompleteTransfer(0)));
            ledger.step(List.of(new RegisterRequest("r2", List.of(1, 2, 3, 4, 5, 6, 7, 8, 9)), new MatchPrefix("r2")));
            ledger.step(List.of(new AllocateBlocks("r2", List.of(3, 4, 5), 8))); // a load of the stored chunks
            ledger.step(List.of(new CompleteTransfer(1), new ComputeTokens("ghost", 1)));  // UNKNOWN_REQUEST
            ledger.step(List.of(new RegisterRequest("r3", List.of(20, 21, 22, 23)), new MatchPrefix("r3"),
                    new AllocateBlocks("r3", List.of(6)), new ComputeTokens("r3", 4))); // the full tier evicts
        }
        Matcher sample = SAMPLE.matcher(registry.scrape());
        while (sample.find()) {
            Map<String, Set<String>> labels = SCRAPED.computeIfAbsent(sample.group(1), name -> new HashMap<>());
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.computeIfAbsent(label.group(1), name -> new HashSet<>()).add(label.group(2));
                }
            }
        }
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        collect(dashboard, EXPRESSIONS);
    }

    @Test
    void everyMetricTheDashboardQueriesIsPublished() {
        assertTrue(EXPRESSIONS.size() > 15, "the dashboard's queries: " + EXPRESSIONS);
        Set<String> queried = new HashSet<>();
        for (String expr : EXPRESSIONS) {
            Matcher metric = METRIC.matcher(expr);
            while (metric.find()) {
                queried.add(metric.group(1));
            }
        }
        for (String name : queried) {
            assertTrue(SCRAPED.containsKey(name), name + " is queried but not published; published: " + SCRAPED.keySet());
        }
        assertTrue(queried.containsAll(List.of("kvledger_step_seconds_bucket", "kvledger_commands_total",
                "kvledger_events_total", "kvledger_rejections_total", "kvledger_tier_chunks", "kvledger_tier_capacity",
                "kvledger_jobs_in_flight")), "the panels the issue asks for: " + queried);
    }

    @Test
    void everyLabelAndExactLabelValueTheDashboardSelectsIsPublished() {
        for (String expr : EXPRESSIONS) {
            Matcher selector = SELECTOR.matcher(expr);
            while (selector.find()) {
                Map<String, Set<String>> labels = SCRAPED.getOrDefault(selector.group(1), Map.of());
                Matcher matcher = MATCHER.matcher(selector.group(2));
                while (matcher.find()) {
                    String label = matcher.group(1);
                    assertTrue(labels.containsKey(label), selector.group(1) + " has no label " + label + ": " + expr);
                    if (matcher.group(2).equals("=")) {
                        assertTrue(labels.get(label).contains(matcher.group(3)),
                                selector.group(1) + "{" + label + "=\"" + matcher.group(3) + "\"} is never published: "
                                        + labels.get(label));
                    }
                }
            }
            Matcher by = BY.matcher(expr);
            while (by.find()) {
                for (String label : by.group(1).split(",")) {
                    String name = label.trim();
                    assertTrue(SCRAPED.getOrDefault(by.group(2), Map.of()).containsKey(name),
                            by.group(2) + " has no label " + name + " to group by: " + expr);
                }
            }
        }
    }

    @Test
    void percentilesHaveHistogramBucketsAndTheStepsAreTimedInSeconds() {
        Map<String, Set<String>> buckets = SCRAPED.get("kvledger_step_seconds_bucket");
        assertTrue(buckets != null && buckets.get("le").size() > 10, "histogram buckets: " + buckets);
        assertFalse(SCRAPED.containsKey("kvledger_step_bucket"), "Micrometer's Prometheus names carry the unit");
        assertEquals(Set.of("engine-0"), SCRAPED.get("kvledger_commands_total").get("engine"));
        assertTrue(SCRAPED.get("kvledger_rejections_total").get("code").contains("UNKNOWN_REQUEST"));
    }

    private static void collect(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if ((field.getKey().equals("expr") || field.getKey().equals("definition")) && field.getValue().isTextual()) {
                    out.add(field.getValue().asText());
                } else {
                    collect(field.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, out));
        }
    }
}
