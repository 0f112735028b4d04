package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.ConfigMismatchException;
import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade over a file store across restarts: it resumes the engine instead of configuring it again. */
class LedgerResumeTest {

    @TempDir
    Path dir;

    private Path file;
    private EngineState before;

    @BeforeEach
    void runAFewSteps() {
        file = dir.resolve("engine.jsonl");
        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.ALWAYS, SteadyWorkload.CONFIG)) {
            assertFalse(ledger.resumed(), "a new store is configured");
            SteadyWorkload workload = new SteadyWorkload();
            StepResult result = null;
            for (int i = 0; i < 20; i++) {
                result = ledger.step(workload.next(result));
            }
            before = ledger.state();
        }
    }

    @Test
    void aLedgerReopenedOnItsStoreFoldsItAndContinues() throws Exception {
        long storedBefore = StoreLogs.read(file).size();

        List<EngineEvent> lastStep;
        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.ALWAYS)) {
            assertTrue(ledger.resumed());
            assertEquals(before, ledger.state(), "the state folded from the file is the state the steps left");
            assertEquals(EngineConfigured.of(SteadyWorkload.CONFIG), ledger.configured(), "the stored config is used");

            StepResult again = ledger.step(List.of(new RegisterRequest("r19", List.of(1)), new ComputeTokens("r19", 0)));
            assertEquals(RejectionCode.DUPLICATE_REQUEST, again.rejections().get(0).code(), "requests of the earlier run are known");
            StepResult next = ledger.step(List.of(new RegisterRequest("r20", List.of(1, 2, 3, 4)),
                    new AllocateBlocks("r20", List.of(900), 0), new ComputeTokens("r20", 4)));
            assertTrue(next.rejections().isEmpty(), next.rejections().toString());
            lastStep = next.events();
        }

        List<LogEntry> log = StoreLogs.read(file);
        assertEquals(1, log.stream().filter(e -> e.event() instanceof EngineConfigured).count(), "configured once");
        assertTrue(log.size() > storedBefore);
        for (int i = 0; i < log.size(); i++) {
            assertEquals(i + 1, log.get(i).seq(), "seq continues without a gap");
        }
        StoreLogs.assertStepFraming(log);
        assertEquals(lastStep, log.subList(log.size() - lastStep.size(), log.size()).stream().map(LogEntry::event).toList());
        assertTrue(lastStep.stream().anyMatch(e -> e instanceof TokensComputed));
        assertTrue(log.stream().anyMatch(e -> e.event() instanceof CommandRejected r && r.code() == RejectionCode.DUPLICATE_REQUEST));
    }

    @Test
    void theSameConfigGivenAgainIsAccepted() {
        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.ALWAYS, SteadyWorkload.CONFIG)) {
            assertTrue(ledger.resumed());
            assertEquals(before, ledger.state());
        }
    }

    @Test
    void aDifferentConfigIsRefusedAndTheStoreIsLeftAsItWasAndUnlocked() throws Exception {
        byte[] stored = Files.readAllBytes(file);

        ConfigMismatchException e = assertThrows(ConfigMismatchException.class,
                () -> FileStores.ledger(file, FsyncPolicy.ALWAYS, SteadyWorkload.CONFIG.withWorkers(2)));

        assertEquals(SteadyWorkload.CONFIG, e.stored());
        assertTrue(e.getMessage().contains("the stored engine \"engine\" is configured with workers 1, the config given has workers 2"), e.getMessage());
        assertTrue(Arrays.equals(stored, Files.readAllBytes(file)));
        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.ALWAYS)) {
            assertTrue(ledger.resumed(), "the failed ledger closed its store");
        }
    }
}
