package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger explain} on real jobs of {@code kvledger run} and on a corpus job that breaks the rules. */
class ExplainCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theAbortMidPrefillStoreIsBoundByTheSixteenComputedTokens() throws Exception {
        Path log = LogFixtures.runExample("05_abort_mid_prefill", dir);

        CliRun run = CliRun.of("explain", log.toString(), "--job", "0");

        assertEquals(0, run.exit(), run.stderr());
        List<String> text = run.stdout();
        assertEquals("job 0: store of request r, scheduled at seq 6 (request RUNNING)", text.get(0));
        assertTrue(text.contains("token bound  O = 16"), String.join("\n", text));
        assertTrue(text.contains("  c  computed tokens    16   <- the least"));
        assertTrue(text.contains("  n  known tokens       24"));
        assertTrue(text.contains("storable     S = 2   with C = 8 tokens, F = 2"));
        assertTrue(text.contains("  floor(O/C)            floor(16/8) = 2   <- the least"));
        assertTrue(text.contains("  floor(table/F)        floor(6/2) = 3"));
        assertTrue(text.contains("cursor       s = 0: chunks 0..1 are offered"));
        assertTrue(text.get(text.size() - 1).startsWith("verdict      follows the rules: the offered chunks the tier lacked, [0, 1], "
                + "from their blocks [1, 2, 3, 4]"));
    }

    @Test
    void theJsonCarriesEveryTermOfTheBoundAndEveryClampOfS() throws Exception {
        Path log = LogFixtures.runExample("05_abort_mid_prefill", dir);

        JsonNode x = json("explain", log.toString(), "--job", "0", "--json");

        assertEquals("kvledger.explain/1", x.get("schema").asText());
        assertEquals("STORE", x.get("kind").asText());
        assertEquals(16, x.get("bound").get("computed").asInt());
        assertEquals(24, x.get("bound").get("numTokens").asInt());
        assertTrue(x.get("bound").get("maxOffloadTokens").isNull());
        assertEquals(16, x.get("bound").get("value").asInt());
        assertEquals(2, x.get("storable").get("byTokens").asInt());
        assertEquals(3, x.get("storable").get("byBlocks").asInt());
        assertEquals(3, x.get("storable").get("byKeys").asInt());
        assertEquals(2, x.get("storable").get("value").asInt());
        assertEquals("[0,1]", x.get("expected").get("chunkIndices").toString());
        assertEquals("[1,2,3,4]", x.get("expected").get("blockIds").toString());
        assertEquals("LACKING", x.get("offered").get(1).get("tier").asText());
        assertEquals(0, x.get("differences").size());
    }

    @Test
    void aLoadIsExplainedByItsMatchAndTheTableAfterItsAllocation() throws Exception {
        Path log = LogFixtures.runExample("07_preemption_flush", dir);

        JsonNode x = json("explain", log.toString(), "--job", "1", "--json");
        CliRun text = CliRun.of("explain", log.toString(), "--job", "1");

        assertEquals("LOAD", x.get("kind").asText());
        assertEquals(14, x.get("match").get("seq").asLong());
        assertEquals(0, x.get("match").get("gpuHitTokens").asInt());
        assertEquals(2, x.get("match").get("hits").asInt());
        assertEquals(8, x.get("match").get("externalTokens").asInt());
        assertEquals(15, x.get("allocationSeq").asLong());
        assertEquals("[7,8]", x.get("expected").get("blockIds").toString());
        assertEquals(8, x.get("computedOnSuccess").asInt());
        assertEquals("READY", x.get("chunks").get(0).get("tier").asText());
        assertTrue(text.stdout().contains("destination  table[L/B .. (a+h)*F) = table[0..2) of [7, 8, 9] = [7, 8]"),
                String.join("\n", text.stdout()));
    }

    @Test
    void aStoreThatBreaksTheRulesIsExplainedWithItsDifferences() throws Exception {
        Path log = LogFixtures.resource("/foreign-logs/vllm_abort_mid_prefill_crash_state.jsonl");

        JsonNode x = json("explain", log.toString(), "--job", "4101", "--json");
        CliRun text = CliRun.of("explain", log.toString(), "--job", "4101");

        assertEquals("ABORTED", x.get("status").asText());
        assertEquals(32, x.get("bound").get("value").asInt());
        assertEquals(2, x.get("storable").get("value").asInt());
        assertEquals(2, x.get("cursor").asInt());
        assertEquals("[]", x.get("expected").get("chunkIndices").toString());
        assertEquals("the job holds chunks [2, 3], the rules give []", x.get("differences").get(0).asText());
        assertEquals("the job names 0 blocks for 2 chunks, which need 2", x.get("differences").get(1).asText());
        assertTrue(text.stdout().contains("cursor       s = 2: nothing is offered (s >= S)"), String.join("\n", text.stdout()));
        assertTrue(text.stdout().contains("verdict      differs from the rules (kvledger audit names the rule it breaks):"));
    }

    @Test
    void aJobNeverScheduledExitsWithOne() throws Exception {
        Path log = LogFixtures.runExample("05_abort_mid_prefill", dir);

        CliRun run = CliRun.of("explain", log.toString(), "--job", "9");
        CliRun noJob = CliRun.of("explain", log.toString());

        assertEquals(1, run.exit());
        assertTrue(run.stderr().contains("job 9 is never scheduled in " + log), run.stderr());
        assertEquals(2, noJob.exit());
    }

    private static JsonNode json(String... args) throws Exception {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exit(), run.stderr());
        return JSON.readTree(String.join("\n", run.stdout()));
    }
}
