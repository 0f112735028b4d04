package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.HashedPrompt;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit's parse thread hashes registered prompts ahead of the fold (PromptHashing), and the fold reads the same
 * log: on simulated logs of one group and of grouped models, the audit's scan that parses ahead hands over hashed
 * prompts, and its fold ends in the state of a scan read on the caller's thread, event by event for every request's
 * hashes. Replay's parse thread hashes a prompt only while the fold is behind it, and leaves the rest to the fold:
 * hashed ahead or not, the fold is the same, and the configuration is followed through prompts left alone.
 *
 * <p>This test is what holds each hashed event equal to the event parsed: {@code LogEntry.withEvent} only checks the
 * type and the request, to spare the parse thread a pass over every prompt.
 */
class PromptHashingTest {

    @TempDir
    Path dir;

    @Test
    void givenLogsOfOneGroupAndOfGroupsWhenParsedAheadThenPromptsComeHashedAndTheFoldIsTheSame() throws Exception {
        int hashed = 0;
        for (String model : new String[] {"default", "gpt-oss", "eagle", "mixed-blocks"}) {
            for (int seed = 1; seed <= 2; seed++) {
                Path log = simulated(model, seed, 150);
                EngineState ahead = null;
                EngineState plain = null;
                try (LogScan withThread = LogScan.open(log, "audit", LogScan.Preparation.HASH_PROMPTS, false, true);
                        LogScan withoutThread = LogScan.open(log, "audit", LogScan.Preparation.HASH_PROMPTS, false, false)) {
                    for (LogEntry a = withThread.next(), b = withoutThread.next(); a != null || b != null;
                            a = withThread.next(), b = withoutThread.next()) {
                        assertEquals(b.event(), a.event(), model + " line " + b.line());
                        assertEquals(a.event(), b.event(), model + " line " + b.line() + ", the hashed event's equals");
                        if (a.event() instanceof RequestRegistered e && e.promptTokens() instanceof HashedPrompt) {
                            hashed++;
                            assertTrue(!(((RequestRegistered) b.event()).promptTokens() instanceof HashedPrompt),
                                    "read on the caller's thread, nothing is hashed ahead");
                        }
                        ahead = EngineFold.evolve(ahead, a.event());
                        plain = EngineFold.evolve(plain, b.event());
                        if (a.event() instanceof RequestRegistered e) {
                            RequestState x = ahead.heldRequest(e.requestId());
                            RequestState y = plain.heldRequest(e.requestId());
                            assertEquals(y == null ? null : y.hashes(), x == null ? null : x.hashes(), model + " " + e.requestId());
                        }
                    }
                }
                assertEquals(plain, ahead, model + " seed " + seed);
            }
        }
        assertTrue(hashed > 500, "prompts hashed ahead: " + hashed);
    }

    @Test
    void givenPromptsHashedAheadOnlyNowAndThenWhenFoldedThenTheFoldIsTheSameAndTheConfigurationFollowed() throws Exception {
        // As replay's parse thread does (HASH_PROMPTS_WHILE_BEHIND): a prompt left as read is hashed by the fold.
        int hashed = 0;
        int left = 0;
        for (String model : new String[] {"default", "gpt-oss"}) {
            Path log = simulated(model, 3, 80);
            int[] asked = {0};
            PromptHashing everyOther = new PromptHashing(null, () -> asked[0]++ % 2 == 0);
            EngineState ahead = null;
            EngineState plain = null;
            try (LogScan scan = LogScan.open(log, "replay", LogScan.Preparation.NONE, false, false)) {
                for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                    LogEntry prepared = everyOther.apply(entry);
                    if (prepared.event() instanceof RequestRegistered e) {
                        if (e.promptTokens() instanceof HashedPrompt) {
                            hashed++;
                        } else {
                            left++;
                            assertSame(entry, prepared, "a prompt not hashed ahead is the entry as read");
                        }
                    }
                    ahead = EngineFold.evolve(ahead, prepared.event());
                    plain = EngineFold.evolve(plain, entry.event());
                }
            }
            assertEquals(plain, ahead, model);
        }
        assertTrue(hashed > 50 && left > 50, "hashed ahead " + hashed + ", left to the fold " + left);
    }

    @Test
    void givenAReplayWhenParsedAheadThenItsEventsAreTheLogsWhateverWasHashedAhead() throws Exception {
        Path log = simulated("default", 3, 60);
        EngineState ahead = null;
        EngineState plain = null;
        try (LogScan withThread = LogScan.open(log, "replay", LogScan.Preparation.HASH_PROMPTS_WHILE_BEHIND, false, true);
                LogScan withoutThread = LogScan.open(log, "replay", LogScan.Preparation.NONE, false, false)) {
            for (LogEntry a = withThread.next(), b = withoutThread.next(); a != null || b != null;
                    a = withThread.next(), b = withoutThread.next()) {
                assertEquals(b.event(), a.event(), "line " + b.line());
                ahead = EngineFold.evolve(ahead, a.event());
                plain = EngineFold.evolve(plain, b.event());
            }
        }
        assertEquals(plain, ahead);
    }

    /** The equality asserted above sees every token: a prompt hashed from other tokens makes another event. */
    @Test
    void givenAPromptHashedFromOtherTokensThenTheEventsDiffer() {
        RequestRegistered read = new RequestRegistered("r", 4, List.of(1, 2, 3, 4));
        RequestRegistered other = new RequestRegistered("r", 4, HashedPrompt.of(List.of(1, 2, 3, 5), 2));
        assertNotEquals(read, other);
        assertNotEquals(other, read);
        assertEquals(read, new RequestRegistered("r", 4, HashedPrompt.of(List.of(1, 2, 3, 4), 2)));
    }

    private Path simulated(String model, int seed, int requests) {
        Path log = dir.resolve(model + "-" + seed + ".jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(OutputStream.nullOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "simulate", "--model", model, "--requests", String.valueOf(requests), "--seed", String.valueOf(seed),
                "-o", log.toString());
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return log;
    }
}
