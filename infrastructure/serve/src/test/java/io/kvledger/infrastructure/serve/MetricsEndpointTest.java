package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prometheus scrapes the engine's and the server's meters over HTTP on 127.0.0.1. */
class MetricsEndpointTest {

    @TempDir
    Path dir;

    @Test
    void aScrapeShowsStepsEventsRejectionsAndRefusedRequests() throws Exception {
        try (ServerHarness harness = new ServerHarness(dir.resolve("m.sock"), null, Optional.empty(), 0);
             UnixClient client = new UnixClient(harness.socket)) {
            client.hello();
            client.request("{\"step\": [{\"cmd\": \"RegisterRequest\", \"requestId\": \"a\", \"promptTokens\": [1]},"
                    + " {\"cmd\": \"FinishRequest\", \"requestId\": \"zz\", \"reason\": \"STOPPED\"}]}");
            client.request("{\"step\": [{\"cmd\": \"Nope\"}]}");
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + harness.server.metricsPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
            String body = scrape.body();
            assertContains(body, "kvledger_step_seconds_count{engine=\"engine\"} 1");
            assertContains(body, "kvledger_commands_total{engine=\"engine\"} 2.0");
            assertContains(body, "kvledger_events_total{engine=\"engine\",type=\"RequestRegistered\"} 1.0");
            assertContains(body, "kvledger_rejections_total{code=\"UNKNOWN_REQUEST\",engine=\"engine\"} 1.0");
            assertContains(body, "kvledger_requests_live{engine=\"engine\"} 1.0");
            assertContains(body, "kvledger_serve_errors_total{code=\"MALFORMED_COMMAND\"} 1.0");
            assertContains(body, "kvledger_serve_sessions_total 1.0");
            assertContains(body, "kvledger_serve_request_seconds_count 1");
        }
    }

    private static void assertContains(String body, String line) {
        assertTrue(body.contains(line), () -> "no \"" + line + "\" in\n" + body);
    }
}
