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
    private final LogFold fold = new LogFold();
    private final CommandWindow window = new CommandWindow();
    /** The seq of each live request's latest PrefixMatched, to say which match a load used. */
    private final Map<String, Long> matchSeqs = new HashMap<>();
    private long allocationMatchSeq;

    public JobExplainer(long jobId) {
        this.jobId = jobId;
    }

    /** Folds one event ({@code null} for an unknown type); the explanation when it schedules the job. */
    public Optional<JobExplanation> next(long seq, EngineEvent event) {
        FoldStep step = fold.apply(seq, event);
        Optional<JobExplanation> answer = Optional.empty();
        if (step.event() instanceof StoreJobScheduled e && e.jobId() == jobId) {
            answer = Optional.of(StoreExplaining.explain(step, e, window, fold));
        } else if (step.event() instanceof LoadJobScheduled e && e.jobId() == jobId) {
            answer = Optional.of(LoadExplaining.explain(step, e, window, allocationMatchSeq, fold));
        }
        track(step);
        return answer;
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
