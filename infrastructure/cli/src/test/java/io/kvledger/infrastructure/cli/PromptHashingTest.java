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
 * hashes. Replay's parse thread hashes a prompt only while the fold is behind it, and leaves the rest to the caller's
 * own hashing (LogScan's, with a memo of its own), as the caller's thread hashes every prompt when it reads alone:
 * hashed ahead, by the caller or not at all, the fold is the same, and the configuration is followed through prompts
 * left alone.
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
                EngineState byCaller = null;
                EngineState plain = null;
                try (LogScan withThread = LogScan.open(log, "audit", LogScan.Preparation.HASH_PROMPTS, false, true);
                        LogScan withoutThread = LogScan.open(log, "audit", LogScan.Preparation.HASH_PROMPTS, false, false);
                        LogScan asRead = LogScan.open(log, "audit", LogScan.Preparation.NONE, false, false)) {
                    for (LogEntry a = withThread.next(), b = withoutThread.next(), c = asRead.next(); a != null || c != null;
                            a = withThread.next(), b = withoutThread.next(), c = asRead.next()) {
                        assertEquals(c.event(), a.event(), model + " line " + c.line());
                        assertEquals(a.event(), c.event(), model + " line " + c.line() + ", the hashed event's equals");
                        assertEquals(c.event(), b.event(), model + " line " + c.line() + ", hashed by the caller");
                        if (c.event() instanceof RequestRegistered e) {
                            assertTrue(!(e.promptTokens() instanceof HashedPrompt), "NONE: the prompt as read");
                            if (a.event() instanceof RequestRegistered h && h.promptTokens() instanceof HashedPrompt) {
                                hashed++;
                                assertTrue(((RequestRegistered) b.event()).promptTokens() instanceof HashedPrompt,
                                        "read on the caller's thread, the caller hashes what a parse thread would");
                            }
                        }
                        ahead = EngineFold.evolve(ahead, a.event());
                        byCaller = EngineFold.evolve(byCaller, b.event());
                        plain = EngineFold.evolve(plain, c.event());
                        if (c.event() instanceof RequestRegistered e) {
                            RequestState x = ahead.heldRequest(e.requestId());
                            RequestState y = plain.heldRequest(e.requestId());
                            RequestState z = byCaller.heldRequest(e.requestId());
                            assertEquals(y == null ? null : y.hashes(), x == null ? null : x.hashes(), model + " " + e.requestId());
                            assertEquals(y == null ? null : y.hashes(), z == null ? null : z.hashes(), model + " " + e.requestId());
                        }
                    }
                }
                assertEquals(plain, ahead, model + " seed " + seed);
                assertEquals(plain, byCaller, model + " seed " + seed);
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
        for (String model : new String[] {"default", "gpt-oss"}) {
            Path log = simulated(model, 3, 60);
            EngineState ahead = null;
            EngineState plain = null;
            int prompts = 0;
            try (LogScan withThread = LogScan.open(log, "replay", LogScan.Preparation.HASH_PROMPTS_WHILE_BEHIND, false, true);
                    LogScan withoutThread = LogScan.open(log, "replay", LogScan.Preparation.NONE, false, false)) {
                for (LogEntry a = withThread.next(), b = withoutThread.next(); a != null || b != null;
                        a = withThread.next(), b = withoutThread.next()) {
                    assertEquals(b.event(), a.event(), "line " + b.line());
                    if (a.event() instanceof RequestRegistered e && e.promptTokens().size() >= 64) {
                        prompts++;
                        // Hashed by the parse thread while the caller was behind, else by the caller's own hashing.
                        assertTrue(e.promptTokens() instanceof HashedPrompt, model + " line " + a.line() + " comes hashed");
                    }
                    ahead = EngineFold.evolve(ahead, a.event());
                    plain = EngineFold.evolve(plain, b.event());
                }
            }
            assertEquals(plain, ahead, model);
            assertTrue(prompts > 30, model + ": prompts of 64 tokens or more " + prompts);
        }
    }

    @Test
    void givenAPromptHashedAlreadyWhenPreparedAgainThenItPassesAsItIs() throws Exception {
        Path log = simulated("default", 4, 20);
        PromptHashing first = new PromptHashing(null, () -> true);
        int[] askedAgain = {0};
        PromptHashing again = new PromptHashing(null, () -> askedAgain[0]++ >= 0);
        int prompts = 0;
        try (LogScan scan = LogScan.open(log, "replay", LogScan.Preparation.NONE, false, false)) {
            for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                LogEntry hashed = first.apply(entry);
                assertSame(hashed, again.apply(hashed), "line " + entry.line());
                prompts += hashed.event() instanceof RequestRegistered ? 1 : 0;
            }
        }
        assertTrue(prompts >= 20, "prompts " + prompts);
        assertEquals(0, askedAgain[0], "a prompt hashed already is not hashed again, nor asked about");
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
