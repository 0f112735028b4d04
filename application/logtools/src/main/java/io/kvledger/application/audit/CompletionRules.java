package io.kvledger.application.audit;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.JobKind;
import java.util.LinkedHashMap;
import java.util.Map;

/** Job ids and completions: UNKNOWN_JOB, JOB_COMPLETED_TWICE, JOB_ENDED_EARLY, JOB_ID_REUSED. */
final class CompletionRules {

    /** How many recent job ends are remembered with their seq, to say when a job ended before. */
    private static final int REMEMBERED_ENDS = 4096;

    private final JobIdSet ended = new JobIdSet();
    private final Map<Long, String> howEnded = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
            return size() > REMEMBERED_ENDS;
        }
    };

    void check(FoldStep step, Findings findings) {
        EngineEvent event = step.event();
        EngineState before = step.before();
        if (event instanceof StoreJobScheduled e) {
            scheduled(before, e.jobId(), findings, e.requestId());
        } else if (event instanceof LoadJobScheduled e) {
            scheduled(before, e.jobId(), findings, e.requestId());
        } else if (event instanceof StoreJobCompleted e) {
            completed(before, e.jobId(), e.requestId(), JobKind.STORE, true, findings);
        } else if (event instanceof LoadJobCompleted e) {
            completed(before, e.jobId(), e.requestId(), JobKind.LOAD, true, findings);
        } else if (event instanceof TransferAcknowledged e) {
            completed(before, e.jobId(), e.requestId(), null, false, findings);
        }
    }

    /** Records the jobs this step ended, whatever ended them. */
    void observe(FoldStep step) {
        if (step.event() instanceof CacheReset) {
            for (Long jobId : step.before().jobs().keySet()) {
                end(jobId, "at the cache reset of seq " + step.seq());
            }
        } else if (step.event() instanceof StoreJobCompleted e) {
            endIfGone(step, e.jobId());
        } else if (step.event() instanceof LoadJobCompleted e) {
            endIfGone(step, e.jobId());
        }
    }

    void clear() {
        ended.clear();
        howEnded.clear();
    }

    private void scheduled(EngineState before, long jobId, Findings findings, String requestId) {
        Job running = before.job(jobId);
        if (running != null) {
            findings.add(AuditCode.JOB_ID_REUSED, requestId, "job " + jobId + " is scheduled while the job of that id ("
                    + describe(running) + ") is still in flight");
        }
        ended.remove(jobId);
        howEnded.remove(jobId);
    }

    private void completed(EngineState before, long jobId, String requestId, JobKind kind, boolean ends,
                           Findings findings) {
        Job job = before.job(jobId);
        String completion = ends ? "completion" : "acknowledgement";
        if (job == null) {
            if (ended.contains(jobId)) {
                String when = howEnded.getOrDefault(jobId, "earlier");
                findings.add(AuditCode.JOB_COMPLETED_TWICE, requestId,
                        "job " + jobId + " gets a " + completion + " but already ended " + when);
            } else {
                findings.add(AuditCode.UNKNOWN_JOB, requestId,
                        "job " + jobId + " gets a " + completion + " but was never scheduled");
            }
            return;
        }
        if ((kind != null && job.kind() != kind) || !job.requestId().equals(requestId)) {
            String claimed = (kind == null ? "job" : kind.name().toLowerCase() + " job") + " of request " + requestId;
            findings.add(AuditCode.UNKNOWN_JOB, requestId, "the " + completion + " names a " + claimed + ", but job "
                    + jobId + " is " + describe(job));
        }
        int workers = before.config().workers();
        if (ends && job.completions() + 1 < workers) {
            findings.add(AuditCode.JOB_ENDED_EARLY, requestId, "job " + jobId + " ends after " + (job.completions() + 1)
                    + " of its " + workers + " completions, so a worker may still be copying");
        }
    }

    private void endIfGone(FoldStep step, long jobId) {
        if (step.before().jobs().containsKey(jobId) && !step.after().jobs().containsKey(jobId)) {
            end(jobId, "at seq " + step.seq());
        }
    }

    private void end(long jobId, String when) {
        ended.add(jobId);
        howEnded.put(jobId, when);
    }

    private static String describe(Job job) {
        return "a " + job.kind().name().toLowerCase() + " of request " + job.requestId();
    }
}
