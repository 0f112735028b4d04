package io.kvledger.application.explain;

import io.kvledger.application.explain.StoreExplanation.OfferedChunk;
import io.kvledger.application.explain.StoreExplanation.Slice;
import io.kvledger.application.explain.StoreExplanation.Storable;
import io.kvledger.application.explain.StoreExplanation.TierAnswer;
import io.kvledger.application.explain.StoreExplanation.TokenBound;
import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.rules.StoreOffer;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.List;

/** Builds a {@link StoreExplanation} with the domain's own rules ({@link StoreBound}, {@link StoreOffer}). */
final class StoreExplaining {

    private StoreExplaining() {
    }

    /** What {@link TierAnswer#heldAfter()} holds until the job's event is folded ({@link #folded}). */
    private static final int HELD_AFTER_UNKNOWN = -1;

    /**
     * The explanation from the state before the job's event ({@code step} prepared, not folded yet); its
     * {@code heldAfter} is filled in by {@link #folded} once the event is folded.
     */
    static StoreExplanation explain(FoldStep step, StoreJobScheduled e, CommandWindow window, LogFold fold) {
        EngineState before = step.before();
        EngineConfig config = before.config();
        RequestState request = before.heldRequest(e.requestId());
        RequestStatus retired = before.retired().getOrElse(e.requestId(), null);
        String known = request != null ? "LIVE" : retired != null ? "RETIRED" : "UNKNOWN";
        Slice job = new Slice(e.chunkIndices().flat(), step.logEvent() instanceof StoreJobScheduled logged ? logged.keys().flat() : e.keys().flat(),
                e.blockIds().flat());
        List<String> evicted = window.evictedInCommand().stream().map(fold::logKeyOf).toList();
        int held = before.tier().size();
        if (request == null) {
            // Nothing is storable for a request the state does not hold: no blocks, c = 0.
            TokenBound bound = new TokenBound(0, 0, config.maxOffloadTokens(), null, 0);
            Storable storable = new Storable(config.chunkTokens(), config.blocksPerChunk(), 0, 0, 0, 0, 0);
            TierAnswer tier = new TierAnswer(config.cpuCapacityChunks(), held + evicted.size(), evicted,
                    HELD_AFTER_UNKNOWN);
            Slice none = new Slice(List.of(), List.of(), List.of());
            return new StoreExplanation(JobExplanation.SCHEMA, "STORE", e.jobId(), step.seq(), e.requestId(), known,
                    retired, bound, storable, 0, List.of(), tier, job, none, withBlockCount(differences(job, none), job, config), null);
        }
        StoreOffer offer = StoreOffer.of(config, before.tier(), request);
        List<OfferedChunk> offered = new ArrayList<>();
        for (int i = 0; i < offer.chunks().size(); i++) {
            int chunk = offer.chunks().get(i);
            String key = offer.keys().get(i);
            TierChunk inTier = before.tier().chunk(key);
            String answer = inTier == null ? "LACKING" : inTier.ready() ? "READY" : "WRITING";
            offered.add(new OfferedChunk(chunk, fold.logKeyOf(key),
                    StoreOffer.sourceBlocks(request, List.of(chunk), config.blocksPerChunk()), answer));
        }
        TierAnswer tier = new TierAnswer(config.cpuCapacityChunks(), held + evicted.size(), evicted, HELD_AFTER_UNKNOWN);
        List<JobGroup> groups = GroupedSlices.store(config, before.tier(), request, fold, new GroupedSlices.Job(
                e.chunkIndices(), step.logEvent() instanceof StoreJobScheduled logged ? logged.keys() : e.keys(), e.blockIds()));
        // One path over the effective groups; without groups (contract 7.0) the output keeps revision 4's form:
        // no per-group parts, differences that name no group.
        boolean perGroup = config.isGrouped();
        List<String> differences = withBlockCount(GroupedSlices.differences(groups, perGroup), job, config);
        return new StoreExplanation(JobExplanation.SCHEMA, "STORE", e.jobId(), step.seq(), e.requestId(), known,
                request.status(), bound(config, request), storable(config, request), request.cursor(), offered, tier,
                job, GroupedSlices.flat(groups, JobGroup::expected), differences, perGroup ? groups : null);
    }

    /** {@code explanation} with the tier's size after the job's event, read from the state that event folded to. */
    static StoreExplanation folded(StoreExplanation explanation, int heldAfter) {
        TierAnswer tier = explanation.tier();
        return new StoreExplanation(explanation.schema(), explanation.kind(), explanation.jobId(), explanation.seq(),
                explanation.requestId(), explanation.requestState(), explanation.status(), explanation.bound(),
                explanation.storable(), explanation.cursor(), explanation.offered(),
                new TierAnswer(tier.capacity(), tier.heldAtOffer(), tier.evicted(), heldAfter), explanation.job(),
                explanation.expected(), explanation.differences(), explanation.groups());
    }

    /** A store also reads all {@code F} blocks of each chunk, so its block count follows from its chunks. */
    private static List<String> withBlockCount(List<String> differences, Slice job, EngineConfig config) {
        long blocksNeeded = (long) job.chunkIndices().size() * config.blocksPerChunk();
        if (job.blockIds().size() != blocksNeeded) {
            differences.add("the job names " + job.blockIds().size() + " blocks for " + job.chunkIndices().size()
                    + " chunks, which need " + blocksNeeded);
        }
        return differences;
    }

    static TokenBound bound(EngineConfig config, RequestState request) {
        return new TokenBound(request.computed(), request.numTokens(), config.maxOffloadTokens(),
                config.offloadPromptOnly() ? request.promptLength() : null, StoreBound.tokenBound(config, request),
                request.maxOffloadTokens());
    }

    static Storable storable(EngineConfig config, RequestState request) {
        int f = config.blocksPerChunk();
        return new Storable(config.chunkTokens(), f, StoreBound.tokenBound(config, request) / config.chunkTokens(),
                request.blockTable().size(), request.blockTable().size() / f, request.keyCount(f),
                StoreBound.storableChunks(config, request));
    }

    /** Keys are left out: another implementation's keys differ from ours by design. */
    static List<String> differences(Slice job, Slice expected) {
        List<String> differences = new ArrayList<>();
        if (!job.chunkIndices().equals(expected.chunkIndices())) {
            differences.add("the job holds chunks " + job.chunkIndices() + ", the rules give " + expected.chunkIndices());
        }
        if (!job.blockIds().equals(expected.blockIds())) {
            differences.add("the job names blocks " + job.blockIds() + ", the rules give " + expected.blockIds());
        }
        if (job.keys().size() != job.chunkIndices().size()) {
            differences.add("the job names " + job.keys().size() + " keys for " + job.chunkIndices().size() + " chunks");
        }
        return differences;
    }
}
