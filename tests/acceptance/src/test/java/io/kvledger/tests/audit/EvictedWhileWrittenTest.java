package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.replay.LogFold;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The log fold keeps the pairing of a log key whose chunk a store in flight still writes when the producer evicts it,
 * and forgets the pairing of an evicted chunk no store writes, whatever the eviction's size: a key or two (each asks
 * the jobs in flight) or more than eight (the keys every store writes, gathered once). The foreign log
 * {@code store_again_of_held_chunk_evicted_while_written} with its eviction at seq 29 naming more keys.
 */
class EvictedWhileWrittenTest {

    private static final String WRITTEN = "f00d0000000001a1";
    private static final String NOT_WRITTEN = "f00d0000000001b1";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} keys evicted")
    @ValueSource(ints = {1, 2, 9, 40})
    void aWrittenChunkKeepsItsLogKeyAndAnUnwrittenOneLosesIt(int evicted) throws Exception {
        Path source = Path.of(getClass().getResource("/foreign-logs/store_again_of_held_chunk_evicted_while_written.jsonl").toURI());
        List<String> keys = new ArrayList<>(List.of(WRITTEN, NOT_WRITTEN));
        for (int i = 0; keys.size() < evicted; i++) {
            keys.add(String.format("f00d00000000ff%02x", i)); // named by no store: nothing to keep or forget
        }
        List<String> named = keys.subList(0, evicted);
        String eviction = "{\"seq\": 29, \"type\": \"ChunksEvicted\", \"keys\": [\""
                + String.join("\", \"", named) + "\"]}";
        List<String> lines = new ArrayList<>(Files.readAllLines(source));
        assertEquals("{\"seq\": 29, \"type\": \"ChunksEvicted\", \"keys\": [\"" + WRITTEN + "\"]}", lines.get(28));
        lines.set(28, eviction);
        Path log = Files.write(dir.resolve("evicted.jsonl"), lines);

        LogFold fold = new LogFold();
        String writtenTokenKey = null;
        String unwrittenTokenKey = null;
        for (LogEntry entry : LogRun.read(log)) {
            fold.fold(entry.seq(), entry.event());
            if (entry.seq() == 15) {
                unwrittenTokenKey = fold.state().heldRequest("cmpl-fs02-0").key(0, 1);
            }
            if (entry.seq() == 24) {
                writtenTokenKey = fold.state().heldRequest("cmpl-fs03-0").key(0, 1);
                assertEquals(WRITTEN, fold.logKeyOf(writtenTokenKey), "paired by the store at seq 24");
                assertEquals(NOT_WRITTEN, fold.logKeyOf(unwrittenTokenKey), "paired by the store at seq 15");
            }
            if (entry.seq() == 29) {
                assertEquals(WRITTEN, fold.logKeyOf(writtenTokenKey), "store 702 still writes it");
                assertEquals(evicted >= 2 ? unwrittenTokenKey : NOT_WRITTEN, fold.logKeyOf(unwrittenTokenKey),
                        "no store writes it: forgotten once evicted");
            }
        }
    }
}
