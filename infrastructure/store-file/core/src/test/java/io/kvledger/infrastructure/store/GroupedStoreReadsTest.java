package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grouped engine's store file read from its middle: reopened from a snapshot (the scan reads the lines
 * after it), continued, and read from a tracking token past its first line. Each read knows the log's
 * groups (from the snapshot's state, or the file's first line), so the per-group fields and the
 * {@code WindowBlocksFreed} of those lines read as they were written.
 */
class GroupedStoreReadsTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withCpuCapacityChunks(64)
            .withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 4)));
    private static final int STEPS = 30;

    @TempDir
    Path dir;

    @Test
    void aGroupedStoreReopenedFromItsSnapshotAndReadFromItsMiddleHoldsWhatTheLedgerDecided() {
        Path file = dir.resolve("grouped.jsonl");
        Workload workload = new Workload();
        List<EngineEvent> decided = new ArrayList<>();
        try (KvLedger memory = KvLedger.builder().config(CONFIG).build()) {
            try (KvLedger stored = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 20)).config(CONFIG).build()) {
                steps(workload, stored, memory, decided, STEPS);
            }
            try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 20)) {
                assertTrue(store.openedFromSnapshot(), "reopened from its snapshot, reading only the lines after it");
                try (KvLedger stored = FileStores.builder(store).config(CONFIG).build()) {
                    steps(workload, stored, memory, decided, STEPS);
                }
            }
        }
        assertTrue(decided.stream().anyMatch(WindowBlocksFreed.class::isInstance), "the workload frees window blocks");
        assertTrue(decided.stream().noneMatch(CommandRejected.class::isInstance), "the workload is accepted: " + decided);

        try (JsonlEventStorageEngine fromEvents = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)) {
            List<Object> all = payloads(fromEvents, 0);
            assertEquals(decided, all.subList(all.size() - decided.size(), all.size()), "the store holds what was decided");
            for (int message = 1; message < 6; message++) {
                // a read after a message's token, past the first line: its lines are the log's tail
                List<Object> tail = payloads(fromEvents, seqOfMessage(fromEvents, message * 9));
                assertEquals(all.subList(all.size() - tail.size(), all.size()), tail);
                assertTrue(tail.size() < all.size() - 1, "read from the middle");
            }
        }
    }

    private static List<Object> payloads(JsonlEventStorageEngine store, long after) {
        try (Stream<? extends TrackedEventMessage<?>> read = store.readEvents(new GlobalSequenceTrackingToken(after), false)) {
            // A step's events are one message (StepEvents); a message of one event carries the event.
            return read.map(TrackedEventMessage::getPayload)
                    .flatMap(payload -> payload instanceof StepEvents step ? step.events().stream() : Stream.of(payload))
                    .map(Object.class::cast).toList();
        }
    }

    /** The tracking token's seq of the {@code n}-th message (from 0): a read after it begins at the next message. */
    private static long seqOfMessage(JsonlEventStorageEngine store, int n) {
        try (Stream<? extends TrackedEventMessage<?>> read = store.readEvents(new GlobalSequenceTrackingToken(0), false)) {
            return read.skip(n).findFirst().map(m -> ((GlobalSequenceTrackingToken) m.trackingToken()).getGlobalIndex())
                    .orElseThrow();
        }
    }

    private static void steps(Workload workload, KvLedger stored, KvLedger memory, List<EngineEvent> decided, int steps) {
        for (int i = 0; i < steps; i++) {
            List<EngineCommand> commands = workload.next();
            StepResult result = stored.step(commands);
            assertEquals(memory.step(commands).events(), result.events());
            decided.addAll(result.events());
            workload.observe(result);
        }
    }

    /** Each step: a request of 16 tokens prefilled in both groups, its window's first block freed; the one before finished. */
    private static final class Workload {
        private int step;
        private int nextBlock;
        private final List<Long> jobs = new ArrayList<>();

        List<EngineCommand> next() {
            List<EngineCommand> commands = new ArrayList<>();
            jobs.forEach(job -> commands.add(new CompleteTransfer(job, step % 7 != 0)));
            jobs.clear();
            String id = "r" + step;
            commands.add(new RegisterRequest(id, IntStream.range(0, 16).map(t -> t < 8 ? t * 5 : step * 100 + t).boxed().toList()));
            commands.add(new MatchPrefix(id, 0));
            List<Integer> full = IntStream.range(0, 4).map(b -> nextBlock + b).boxed().toList();
            List<Integer> sliding = IntStream.range(4, 8).map(b -> nextBlock + b).boxed().toList();
            nextBlock += 8;
            commands.add(new AllocateBlocks(id, PerGroup.of(full, sliding), 0));
            commands.add(new ComputeTokens(id, 16));
            commands.add(new FreeWindowBlocks(id, PerGroup.of(List.of(), List.of(sliding.get(0)))));
            if (step > 0) {
                commands.add(new FinishRequest("r" + (step - 1), FinishReason.STOPPED));
            }
            step++;
            return commands;
        }

        void observe(StepResult result) {
            for (EngineEvent event : result.events()) {
                if (event instanceof StoreJobScheduled store) {
                    jobs.add(store.jobId());
                }
            }
        }
    }
}
