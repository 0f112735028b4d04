package io.kvledger.application.explain;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Follows a log up to the event that schedules one job and explains that job from the state just
 * before it. Feed it events in order until it answers.
 */
public final class JobExplainer {

    private final long jobId;
    private final LogFold fold;
    private final CommandWindow window = new CommandWindow();
    /** The seq of each live request's latest PrefixMatched, to say which match a load used. */
    private final Map<String, Long> matchSeqs = new HashMap<>();
    private long allocationMatchSeq;

    public JobExplainer(long jobId) {
        this(jobId, null);
    }

    /** An explainer of a log that begins after {@code base} (a store segment's base; {@code null} for none). */
    public JobExplainer(long jobId, io.kvledger.domain.state.EngineState base) {
        this.jobId = jobId;
        this.fold = new LogFold(base);
    }

    /** Folds one event ({@code null} for an unknown type); the explanation when it schedules the job. */
    public Optional<JobExplanation> next(long seq, EngineEvent event) {
        // The job is explained from the state before its event, read before that event is folded.
        FoldStep pending = fold.prepare(seq, event);
        JobExplanation answer = null;
        if (pending.event() instanceof StoreJobScheduled e && e.jobId() == jobId) {
            answer = StoreExplaining.explain(pending, e, window, fold);
        } else if (pending.event() instanceof LoadJobScheduled e && e.jobId() == jobId) {
            answer = LoadExplaining.explain(pending, e, window, allocationMatchSeq, fold);
        }
        window.before(pending);
        FoldStep step = fold.complete(pending);
        if (answer instanceof StoreExplanation store) {
            answer = StoreExplaining.folded(store, step.after().tier().size());
        }
        track(step);
        return Optional.ofNullable(answer);
    }

    private void track(FoldStep step) {
        window.observe(step);
        EngineEvent event = step.event();
        if (event instanceof PrefixMatched e) {
            matchSeqs.put(e.requestId(), step.seq());
        } else if (event instanceof PrefixMatchDeferred e) {
            matchSeqs.remove(e.requestId());
        } else if (event instanceof BlocksAllocated e) {
            Long matched = matchSeqs.remove(e.requestId());
            allocationMatchSeq = matched == null ? 0 : matched;
        }
        if (event instanceof RequestEvent e && !step.after().requests().containsKey(e.requestId())) {
            matchSeqs.remove(e.requestId());
        }
    }
}
