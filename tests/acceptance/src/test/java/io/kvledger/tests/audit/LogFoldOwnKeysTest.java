package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The log tools fold a log in kvledger's own keys with the request's own strings of them (equal to the log's, not the
 * same), so the tier finds the chunks the rules name by identity: on simulated logs of one group and of groups, every
 * store the fold takes (several models and seeds) names, for each chunk the request has a key of, the very string the request gives for it;
 * what the log's stored chunks name is those strings too; and the fold ends, step by step, in the state the log's own
 * events fold to.
 */
class LogFoldOwnKeysTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} seed {1}")
    @CsvSource({"default, 7", "default, 8", "gpt-oss, 7", "gpt-oss, 9", "mixed-blocks, 7", "eagle, 8"})
    void givenAKvledgerLogWhenFoldedThenStoresNameTheRequestsOwnKeysAndTheStateIsTheLogs(String model, int seed)
            throws Exception {
        Path log = dir.resolve(model + "-" + seed + ".jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "simulate", "--model", model, "--requests", "120", "--seed", String.valueOf(seed), "-o", log.toString());
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        List<LogEntry> entries = LogRun.read(log);
        LogFold fold = new LogFold();
        EngineState plain = null;
        int ownKeys = 0;
        int storedOwn = 0;
        for (LogEntry entry : entries) {
            EngineState before = fold.state();
            FoldStep step = fold.fold(entry.seq(), entry.event());
            if (step.event() instanceof StoreJobScheduled folded && entry.event() instanceof StoreJobScheduled logged) {
                assertEquals(logged, folded, "line " + entry.line() + ": the same store");
                RequestState request = before.heldRequest(folded.requestId());
                EngineConfig config = before.config();
                for (int g = 0; g < folded.keys().groupCount(); g++) {
                    List<Integer> chunks = folded.chunkIndices().group(g);
                    List<String> keys = folded.keys().group(g);
                    for (int i = 0; i < keys.size(); i++) {
                        if (request != null && chunks.get(i) < request.keyCount(config, g)) {
                            assertSame(request.key(config, g, chunks.get(i)), keys.get(i), "line " + entry.line());
                            ownKeys++;
                        }
                    }
                }
            }
            if (step.event() instanceof ChunksStored folded && !folded.keys().isEmpty()) {
                assertEquals(entry.event(), folded, "line " + entry.line() + ": the same chunks");
                storedOwn += folded.keys() != ((ChunksStored) entry.event()).keys() ? 1 : 0;
            }
            plain = EngineFold.evolve(plain, entry.event());
            assertEquals(plain, fold.state(), model + " after line " + entry.line());
        }
        assertTrue(ownKeys > 50, model + ": stored chunks named by the request's own keys: " + ownKeys);
        assertTrue(storedOwn > 10, model + ": stored chunks mapped to the request's keys: " + storedOwn);
    }
}
