package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
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
import java.util.List;
import java.util.Map;

/**
 * Job ids and completions (contract section 4, Completion, ResetCache): UNKNOWN_JOB, JOB_COMPLETED_TWICE,
 * STALE_JOB_COMPLETED, JOB_MISMATCH, ACK_MISMATCH, DUPLICATE_JOB_ID, and RESET_MISMATCH for a job
 * scheduled below the last reset's {@code staleBelowJobId}.
 */
final class CompletionRules implements AuditRule {

    /** How many recent job ends are remembered with their seq, to say when a job ended before. */
    private static final int REMEMBERED_ENDS = 4096;

    /** Every job id ever scheduled, as ranges: ids mostly ascend, so this stays a few ranges. */
    private final JobIdSet scheduled = new JobIdSet();
    private final Map<Long, JobEnd> howEnded = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, JobEnd> eldest) {
            return size() > REMEMBERED_ENDS;
        }
    };

    /**
     * Where a job ended, worded only for a finding: every completion records one, and a string made per completion
     * (through C1's method handles for concatenation) cost more than the rule's checks.
     */
    private record JobEnd(long seq, boolean atReset) {
        String wording() {
            return (atReset ? "at the cache reset of seq " : "at seq ") + seq;
        }
    }

    /** Read by {@link #check} from the state before the event, for {@link #observe}: the jobs a reset ends. */
    private List<Long> jobsBeforeReset = List.of();
    /** Whether the completed job was in flight before its completion. */
    private boolean inFlightBefore;

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        EngineEvent event = step.event();
        EngineState before = step.before();
        // What observe needs of the state before, read before the fold.
        jobsBeforeReset = event instanceof CacheReset ? List.copyOf(before.jobs().keyList()) : List.of();
        inFlightBefore = event instanceof StoreJobCompleted stored ? before.jobs().containsKey(stored.jobId())
                : event instanceof LoadJobCompleted loaded && before.jobs().containsKey(loaded.jobId());
        if (event instanceof StoreJobScheduled e) {
            scheduled(before, e.jobId(), findings, e.requestId());
        } else if (event instanceof LoadJobScheduled e) {
            scheduled(before, e.jobId(), findings, e.requestId());
        } else if (event instanceof StoreJobCompleted e) {
            completed(before, e.jobId(), e.requestId(), JobKind.STORE, e.success(), true, findings);
        } else if (event instanceof LoadJobCompleted e) {
            completed(before, e.jobId(), e.requestId(), JobKind.LOAD, e.success(), true, findings);
        } else if (event instanceof TransferAcknowledged e) {
            completed(before, e.jobId(), e.requestId(), null, e.success(), false, findings);
        }
    }

    /** Records the jobs this step ended, whatever ended them. */
    @Override
    public void observe(FoldStep step) {
        if (step.event() instanceof StoreJobScheduled e) {
            scheduled.add(e.jobId());
        } else if (step.event() instanceof LoadJobScheduled e) {
            scheduled.add(e.jobId());
        } else if (step.event() instanceof CacheReset) {
            for (Long jobId : jobsBeforeReset) {
                howEnded.put(jobId, new JobEnd(step.seq(), true));
            }
        } else if (step.event() instanceof StoreJobCompleted e) {
            endIfGone(step, e.jobId());
        } else if (step.event() instanceof LoadJobCompleted e) {
            endIfGone(step, e.jobId());
        }
    }

    private void scheduled(EngineState before, long jobId, Findings findings, String requestId) {
        Job running = before.job(jobId);
        if (running != null) {
            findings.add(AuditCode.DUPLICATE_JOB_ID, requestId, "job " + jobId + " is scheduled while the job of that id ("
                    + describe(running) + ") is still in flight");
        } else if (scheduled.contains(jobId)) {
            findings.add(AuditCode.DUPLICATE_JOB_ID, requestId, "job " + jobId + " is scheduled again; a job of that id "
                    + "already ran and ended " + howEnded(jobId, "earlier"));
        } else if (jobId < before.staleBelowJobId()) {
            findings.add(AuditCode.RESET_MISMATCH, requestId, "job " + jobId + " is scheduled below staleBelowJobId "
                    + before.staleBelowJobId() + " of the last reset, so its completions would be taken as stale");
        }
    }

    private void completed(EngineState before, long jobId, String requestId, JobKind kind, boolean success, boolean ends,
                           Findings findings) {
        Job job = before.job(jobId);
        String completion = ends ? "completion" : "acknowledgement";
        if (job == null) {
            if (!scheduled.contains(jobId)) {
                findings.add(AuditCode.UNKNOWN_JOB, requestId,
                        "job " + jobId + " gets " + (ends ? "a " : "an ") + completion + " but was never scheduled");
            } else if (jobId < before.staleBelowJobId()) {
                findings.add(AuditCode.STALE_JOB_COMPLETED, requestId, "job " + jobId + " gets " + (ends ? "a " : "an ") + completion
                        + " but is below staleBelowJobId " + before.staleBelowJobId() + ": it ended "
                        + howEnded(jobId, "at a reset") + ", so the rules take the completion as stale");
            } else {
                findings.add(AuditCode.JOB_COMPLETED_TWICE, requestId,
                        "job " + jobId + " gets " + (ends ? "a " : "an ") + completion + " but already ended " + howEnded(jobId, "earlier"));
            }
            return;
        }
        if ((kind != null && job.kind() != kind) || !job.requestId().equals(requestId)) {
            String claimed = (kind == null ? "job" : kind.name().toLowerCase() + " job") + " of request " + requestId;
            findings.add(AuditCode.JOB_MISMATCH, requestId, "the " + completion + " names a " + claimed + ", but job "
                    + jobId + " is " + describe(job));
            return;
        }
        int workers = before.config().workers();
        int arrived = job.completions() + 1;
        if (ends && arrived < workers) {
            findings.add(AuditCode.ACK_MISMATCH, requestId, "job " + jobId + " ends after " + arrived
                    + " of its " + workers + " completions, so a worker may still be copying (the rules give a TransferAcknowledged)");
        } else if (!ends && arrived >= workers) {
            findings.add(AuditCode.ACK_MISMATCH, requestId, "job " + jobId + " gets a TransferAcknowledged for completion "
                    + arrived + " of " + workers + ", where the rules end the job");
        } else if (ends && success && job.failed()) {
            findings.add(AuditCode.ACK_MISMATCH, requestId, "job " + jobId + " is reported successful, but an earlier "
                    + "completion of it said success: false, so the rules end it failed");
        }
    }

    private void endIfGone(FoldStep step, long jobId) {
        if (inFlightBefore && !step.after().jobs().containsKey(jobId)) {
            howEnded.put(jobId, new JobEnd(step.seq(), false));
        }
    }

    private String howEnded(long jobId, String otherwise) {
        JobEnd end = howEnded.get(jobId);
        return end == null ? otherwise : end.wording();
    }

    private static String describe(Job job) {
        return "a " + job.kind().name().toLowerCase() + " of request " + job.requestId();
    }
}
