package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scrape is Prometheus' text format as Prometheus' own Python parser reads it (Debian's
 * {@code python3-prometheus-client}, which {@code ./test} installs), and every meter has its help text, which
 * {@code promtool check metrics} requires; paths other than {@code /metrics} are 404.
 */
class PrometheusTextFormatTest {

    /** Every family the engine and the server publish once a step has run (counter names without _total). */
    private static final Set<String> FAMILIES = Set.of("kvledger_step_seconds", "kvledger_step_seconds_max",
            "kvledger_commands", "kvledger_events", "kvledger_rejections", "kvledger_requests_live",
            "kvledger_jobs_in_flight", "kvledger_fences", "kvledger_tier_chunks", "kvledger_tier_capacity",
            "kvledger_serve_sessions", "kvledger_serve_clients_refused", "kvledger_serve_errors",
            "kvledger_serve_request_seconds", "kvledger_serve_request_seconds_max", "kvledger_serve_encode_seconds",
            "kvledger_serve_encode_seconds_max");

    /** Reads the text format from stdin; prints one line per family: name, type, help; exits 1 if it cannot. */
    private static final String PARSER = String.join("\n",
            "import sys",
            "from prometheus_client.parser import text_string_to_metric_families",
            "for family in text_string_to_metric_families(sys.stdin.read()):",
            "    print('%s\\t%s\\t%s' % (family.name, family.type, family.documentation.replace('\\t', ' ')))");

    @TempDir
    Path dir;

    @Test
    void everyFamilyParsesAndHasItsHelpText() throws Exception {
        String body = scrapeAfterAStep("/metrics").body();

        Map<String, String> help = new LinkedHashMap<>();
        Map<String, String> types = new HashMap<>();
        for (String line : parse(body)) {
            String[] fields = line.split("\t", -1);
            assertEquals(3, fields.length, line);
            help.put(fields[0], fields[2]);
            types.put(fields[0], fields[1]);
        }
        assertTrue(help.keySet().containsAll(FAMILIES), "families " + help.keySet() + " lack some of " + FAMILIES);
        help.forEach((family, text) -> assertTrue(!text.isBlank(), () -> "no help text for " + family + " in\n" + body));
        assertEquals("counter", types.get("kvledger_commands"));
        assertEquals("gauge", types.get("kvledger_fences"));
        assertEquals("histogram", types.get("kvledger_step_seconds"));
        assertHelpBeforeEachType(body);
    }

    @Test
    void otherPathsAre404() throws Exception {
        assertEquals(404, scrapeAfterAStep("/metricsX").statusCode());
        assertEquals(404, scrapeAfterAStep("/").statusCode());
        assertEquals(404, scrapeAfterAStep("/metrics/x").statusCode());
    }

    /** The text format's own rule, checked line by line: {@code # HELP name text} comes before {@code # TYPE name}. */
    private static void assertHelpBeforeEachType(String body) {
        Map<String, String> help = new HashMap<>();
        List<String> typed = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("# HELP ")) {
                String[] parts = line.substring(7).split(" ", 2);
                help.put(parts[0], parts.length == 2 ? parts[1] : "");
            } else if (line.startsWith("# TYPE ")) {
                String name = line.substring(7).split(" ", 2)[0];
                assertTrue(!help.getOrDefault(name, "").isBlank(), "no help text before " + line);
                typed.add(name);
            }
        }
        assertTrue(typed.size() >= FAMILIES.size(), typed.toString());
    }

    private HttpResponse<String> scrapeAfterAStep(String path) throws Exception {
        try (ServerHarness harness = new ServerHarness(dir.resolve("p" + System.nanoTime() + ".sock"), null,
                Optional.empty(), 0);
             UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            client.request("{\"step\": [{\"cmd\": \"RegisterRequest\", \"requestId\": \"a\", \"promptTokens\": [1]},"
                    + " {\"cmd\": \"FinishRequest\", \"requestId\": \"zz\", \"reason\": \"STOPPED\"}]}");
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + harness.server.metricsPort() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    /** The families Prometheus' Python parser reads from {@code body}; it must read all of it. */
    private static List<String> parse(String body) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("python3", "-c", PARSER);
        // Debian's package lives in the system interpreter's dist-packages; a python3 of another
        // installation (pyenv) finds it there too, as the parser is pure Python.
        builder.environment().merge("PYTHONPATH", "/usr/lib/python3/dist-packages", (a, b) -> a + ":" + b);
        Process python = builder.start();
        try (OutputStream in = python.getOutputStream()) {
            in.write(body.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(python.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(60, TimeUnit.SECONDS));
        assertTrue(!err.contains("No module named 'prometheus_client'"),
                "Prometheus' parser is missing: apt-get install python3-prometheus-client (./test does)");
        assertEquals(0, python.exitValue(), "Prometheus' parser refused the scrape: " + err + "\n" + body);
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
}
