package io.kvledger.infrastructure.log;

import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import java.util.ArrayList;
import java.util.List;

/** One event of every type, each enum choice and each rejection code among them: what the readers must read back. */
final class EveryEvent {

    private EveryEvent() {
    }

    static List<EngineEvent> list() {
        List<EngineEvent> events = new ArrayList<>();
        for (ReleasePolicy policy : ReleasePolicy.values()) {
            events.add(EngineConfigured.of(EngineConfig.DEFAULTS.withReleasePolicy(policy).withMaxOffloadTokens(64)));
        }
        events.add(EngineConfigured.of(EngineConfig.DEFAULTS.withOffloadPromptOnly(true)));
        events.add(EngineConfigured.of(EngineConfig.DEFAULTS).withProducer("kvledger_capture 0.6 / vLLM 0.28.0"));
        events.add(new RequestRegistered("r", 3, List.of(1, 2, Integer.MAX_VALUE)));
        events.add(new RequestRegistered("r", 3, List.of(1, 2, 3), 0, Integer.MAX_VALUE, true));
        events.add(new RequestRegistered("r", 3, List.of(1, 2, 3), null, 8, false));
        events.add(new PrefixMatched("r", 16, 32, List.of(1, 2)));
        for (DeferReason reason : DeferReason.values()) {
            events.add(new PrefixMatchDeferred("r", 16, reason));
        }
        events.add(new BlocksAllocated("r", List.of(3, 4), 0));
        events.add(new LoadJobScheduled(Long.MAX_VALUE, "r", List.of(1), List.of("k1"), List.of(4)));
        events.add(new TokensComputed("r", 17));
        events.add(new TokensRejected("r", 16));
        events.add(new TokensAppended("r", 4, List.of(9)));
        events.add(new StoreJobScheduled(2, "r", List.of(0, 1), List.of("k0", "k1"), List.of(3, 4)));
        for (StoreDeferReason reason : StoreDeferReason.values()) {
            events.add(new StoreDeferred("r", List.of(2, 3), reason));
        }
        events.add(new StoreJobCompleted(2, "r", true));
        events.add(new LoadJobCompleted(1, "r", false));
        events.add(new TransferAcknowledged(2, "r", false));
        events.add(new ChunksStored(List.of("k0", "k1")));
        events.add(new ChunksEvicted(List.of("k0")));
        events.add(new FlushRequired(List.of(1L, 2L), List.of(3, 4)));
        events.add(new RequestPreempted("r"));
        events.add(new RequestAborted("r"));
        for (FinishReason reason : FinishReason.values()) {
            events.add(new RequestFinished("r", reason));
        }
        events.add(new BlocksReleased("r", List.of(4, 3)));
        events.add(new WindowBlocksFreed("r", PerGroup.single(List.of(2))));
        events.add(new CacheReset(3));
        for (RejectionCode code : RejectionCode.values()) {
            events.add(new CommandRejected(7, "AbortRequest", code, "why \"quoted\" \u00e9", "r", null));
            events.add(new CommandRejected(8, "CompleteTransfer", code, "why", null, 5L));
        }
        events.add(new CommandRejected(9, "AbortRequest", RejectionCode.INVALID_ARGUMENT, "an integer id", 12L, null));
        events.add(new CommandRejected(0, "CompleteTransfer", RejectionCode.INVALID_ARGUMENT, "a string job id", null, "x"));

        return events;
    }
}
