package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code kvledger audit LOG --explain SEQ [--json]}: the command of SEQ, the state before it, rules and log side by side. */
class AuditExplainCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aViolationIsExplainedWithTheStateBeforeAndBothSides() throws Exception {
        CliRun run = CliRun.of("audit", corpus("store_missing").toString(), "--explain", "6");

        assertEquals(1, run.exit(), run.stderr());
        String text = String.join("\n", run.stdout());
        assertTrue(text.startsWith("seq 6 belongs to the command of seq 5: ComputeTokens[requestId=a, tokens=12]"), text);
        assertTrue(text.contains("  (policy) seq 6 STORE_MISSING request a: the rules give StoreJobScheduled"), text);
        assertTrue(text.contains("before       request a RUNNING, c=0, n=12, s=0, O=0, S=0"), text);
        assertTrue(text.contains("THE RULES DERIVE") && text.contains("THE LOG SHOWS"), text);
        String differing = run.stdout().stream().filter(line -> line.startsWith(">")).findFirst().orElseThrow();
        assertTrue(differing.contains("chunkIndices=[0, 1, 2]") && differing.contains("chunkIndices=[0, 1]"), differing);
        assertTrue(text.endsWith("verdict      differs from the rules at row 2"), text);
    }

    @Test
    void aCommandThatKeepsTheRulesExplainsCleanlyAndExitsZero() throws Exception {
        CliRun run = CliRun.of("audit", corpus("store_missing").toString(), "--explain", "13");

        assertEquals(0, run.exit(), run.stderr());
        String text = String.join("\n", run.stdout());
        assertTrue(text.contains("findings     none"), text);
        assertFalse(run.stdout().stream().anyMatch(line -> line.startsWith(">")), text);
        assertTrue(text.endsWith("verdict      the log shows what the rules derive"), text);
    }

    @Test
    void theJsonHasTheSchemaTheFindingsAndTheRows() throws Exception {
        CliRun run = CliRun.of("audit", corpus("eviction_not_lru").toString(), "--explain", "15", "--json");

        assertEquals(1, run.exit(), run.stderr());
        JsonNode view = JSON.readTree(String.join("\n", run.stdout()));
        assertEquals("kvledger.audit.explain/1", view.get("schema").textValue());
        assertEquals(14, view.get("commandSeq").intValue());
        assertEquals("EVICTION_NOT_LRU", view.get("findings").get(0).get("code").textValue());
        assertEquals(4, view.get("tier").get("held").intValue());
        assertEquals("b", view.get("request").get("requestId").textValue());
        assertTrue(view.get("rows").get(0).get("same").booleanValue());
        assertFalse(view.get("rows").get(1).get("same").booleanValue());
        assertEquals(15, view.get("rows").get(1).get("seq").intValue());
    }

    @Test
    void aSeqWithNoCommandIsABadArgument() throws Exception {
        CliRun run = CliRun.of("audit", corpus("store_missing").toString(), "--explain", "1");

        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("has no command at seq 1"), run.stderr());
        assertEquals(2, CliRun.of("audit", corpus("store_missing").toString(), "--explain", "999").exit());
    }

    private static Path corpus(String name) throws Exception {
        return LogFixtures.resource("/audit-corpus/" + name + ".jsonl");
    }
}
