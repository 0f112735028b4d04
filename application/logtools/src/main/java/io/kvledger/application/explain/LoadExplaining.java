package io.kvledger.application.explain;

import io.kvledger.application.explain.LoadExplanation.LoadedChunk;
import io.kvledger.application.explain.LoadExplanation.Match;
import io.kvledger.application.explain.StoreExplanation.Slice;
import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.List;

/** Builds a {@link LoadExplanation} from the match the allocation used up and the table after it. */
final class LoadExplaining {

    private LoadExplaining() {
    }

    static LoadExplanation explain(FoldStep step, LoadJobScheduled e, CommandWindow window, long matchSeq,
                                   LogFold fold) {
        EngineState before = step.before();
        EngineConfig config = before.config();
        RequestState request = before.heldRequest(e.requestId());
        CommandWindow.Allocation allocation = window.allocation();
        boolean ours = allocation != null && allocation.requestId().equals(e.requestId());
        PrefixMatch used = ours ? allocation.match() : null;
        List<Integer> table = request == null ? List.of() : request.blockTable().asJava();
        List<String> logKeys = step.logEvent() instanceof LoadJobScheduled logged ? logged.keys().flat() : e.keys().flat();
        Slice job = new Slice(e.chunkIndices().flat(), logKeys, e.blockIds().flat());
        List<LoadedChunk> chunks = chunks(before, e, logKeys);
        int cursor = request == null ? 0 : request.cursor();
        if (used == null || request == null) {
            Slice none = new Slice(List.of(), List.of(), List.of());
            return new LoadExplanation(JobExplanation.SCHEMA, "LOAD", e.jobId(), step.seq(), e.requestId(),
                    request == null ? before.statusOf(e.requestId()) : request.status(), null,
                    ours ? allocation.seq() : 0, table, 0, 0, chunks, cursor, cursor, 0, job, none,
                    List.of("no allocation of request " + e.requestId() + " used up a PrefixMatched just before this load"), null);
        }
        int c = config.chunkTokens();
        int l = used.gpuHitTokens();
        Match match = new Match(matchSeq, l, c, l / c, used.hitChunks().flat().size(), used.hitChunks().flat(), used.externalTokens());
        int firstBlock = l / config.gpuBlockSize();
        int endBlock = used.endChunk() * config.blocksPerChunk();
        int computedOnSuccess = Math.min(l + used.externalTokens(), request.numTokens() - 1);
        List<JobGroup> groups = GroupedSlices.load(config, request, used, fold, new GroupedSlices.Job(e.chunkIndices(),
                step.logEvent() instanceof LoadJobScheduled logged ? logged.keys() : e.keys(), e.blockIds()));
        // One path over the effective groups; without groups (contract 7.0) the output keeps revision 4's form.
        boolean perGroup = config.isGrouped();
        return new LoadExplanation(JobExplanation.SCHEMA, "LOAD", e.jobId(), step.seq(), e.requestId(), request.status(),
                match, allocation.seq(), table, firstBlock, endBlock, chunks, cursor,
                Math.max(cursor, used.endChunk()), computedOnSuccess, job, GroupedSlices.flat(groups, JobGroup::expected),
                GroupedSlices.differences(groups, perGroup), perGroup ? groups : null);
    }

    private static List<LoadedChunk> chunks(EngineState before, LoadJobScheduled e, List<String> logKeys) {
        List<LoadedChunk> chunks = new ArrayList<>();
        List<String> keys = e.keys().flat(); // once: a grouped field's flat list is made anew by every call
        List<Integer> indices = e.chunkIndices().flat();
        for (int i = 0; i < keys.size() && i < indices.size(); i++) {
            TierChunk inTier = before.tier().chunk(keys.get(i));
            String tier = inTier == null ? "ABSENT" : inTier.ready() ? "READY" : "WRITING";
            chunks.add(new LoadedChunk(indices.get(i), logKeys.get(i), tier, inTier == null ? 0 : inTier.pins()));
        }
        return chunks;
    }
}
