package io.kvledger.infrastructure.trace;

import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.trace.TraceEvents.Args;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The tracks of what is live: one process per request (its state slices on thread 1, its jobs as
 * async slices under it) and the jobs in flight. A request's entry goes when it retires (ended, no
 * blocks, no jobs), a job's when it ends, so memory follows what is live. Slices are written only
 * while the window is open; tracking goes on before it, so the window opens on the right state.
 */
final class Tracks {

    static final int STATE_TID = 1;
    private static final int FIRST_REQUEST_PID = 2;

    private static final class RequestTrack {
        final String requestId;
        final int pid;
        String phase;
        boolean terminal;
        boolean named;
        boolean sliceOpen;

        RequestTrack(String requestId, int pid) {
            this.requestId = requestId;
            this.pid = pid;
        }
    }

    private static final class JobTrack {
        final long jobId;
        final String kind;
        final String requestId;
        final int pid;
        boolean sliceOpen;

        JobTrack(long jobId, String kind, String requestId, int pid) {
            this.jobId = jobId;
            this.kind = kind;
            this.requestId = requestId;
            this.pid = pid;
        }
    }

    private final TraceEvents out;
    private final TraceWindow window;
    private final Map<String, RequestTrack> requests = new LinkedHashMap<>();
    private final Map<Long, JobTrack> jobs = new LinkedHashMap<>();
    private boolean open;
    private long jobSlices;
    private long unfinishedJobs;
    private int stores;
    private int loads;

    Tracks(TraceEvents out, TraceWindow window) {
        this.out = out;
        this.window = window;
    }

    void setOpen(boolean value) {
        open = value;
    }

    long jobSlices() {
        return jobSlices;
    }

    long unfinishedJobs() {
        return unfinishedJobs;
    }

    int storesInFlight() {
        return stores;
    }

    int loadsInFlight() {
        return loads;
    }

    List<String> requestIds() {
        return new ArrayList<>(requests.keySet());
    }

    /** The window opens: the states and jobs live now begin here. */
    void openAll(long ts) throws IOException {
        for (RequestTrack track : requests.values()) {
            if (track.phase != null && shows(track)) {
                begin(track, ts, g -> g.writeStringField("openedBy", "window start"));
            }
        }
        for (JobTrack job : jobs.values()) {
            if (window.shows(job.requestId)) {
                beginJob(job, ts, g -> g.writeStringField("openedBy", "window start"));
            }
        }
    }

    /** The end of the log or window, or a second EngineConfigured: everything open is closed, marked so. */
    void closeAll(long ts, String endedBy) throws IOException {
        for (JobTrack job : jobs.values()) {
            if (job.sliceOpen) {
                unfinishedJobs++;
                out.asyncEnd(job.pid, job.kind, job.kind, job.jobId, ts, g -> {
                    g.writeStringField("endedBy", endedBy);
                    g.writeBooleanField("unfinished", true);
                });
            }
        }
        for (RequestTrack track : requests.values()) {
            if (track.sliceOpen) {
                out.end(track.pid, STATE_TID, ts, g -> g.writeStringField("endedBy", endedBy));
            }
        }
        jobs.clear();
        requests.clear();
        stores = 0;
        loads = 0;
    }

    void jobScheduled(long jobId, String kind, String requestId, long ts, LogEntry entry) throws IOException {
        JobTrack replaced = jobs.remove(jobId);
        if (replaced != null) {
            // Only a foreign log reuses the id of a job in flight (audit's DUPLICATE_JOB_ID).
            endJob(replaced, ts, g -> g.writeStringField("endedBy", "job id reused at seq " + entry.seq()));
        }
        RequestTrack owner = requests.get(requestId);
        JobTrack job = new JobTrack(jobId, kind, requestId, owner == null ? LogTrace.ENGINE_PID : owner.pid);
        jobs.put(jobId, job);
        if ("store".equals(kind)) {
            stores++;
        } else {
            loads++;
        }
        if (open && window.shows(requestId)) {
            if (owner != null) {
                name(owner);
            }
            beginJob(job, ts, LogTrace.fieldsOf(entry));
        }
    }

    void jobEnded(long jobId, long ts, LogEntry entry) throws IOException {
        JobTrack job = jobs.remove(jobId);
        if (job != null) {
            endJob(job, ts, g -> {
                g.writeNumberField("endSeq", entry.seq());
                g.writeStringField("endedBy", entry.type());
                g.writeBooleanField("success", entry.raw().path("success").asBoolean(true));
            });
        }
    }

    /** At a reset every job in flight ends, not done. */
    void jobsEndedByReset(EngineState after, long ts, long seq) throws IOException {
        for (JobTrack job : new ArrayList<>(jobs.values())) {
            if (after.job(job.jobId) == null) {
                jobs.remove(job.jobId);
                endJob(job, ts, g -> {
                    g.writeNumberField("endSeq", seq);
                    g.writeStringField("endedBy", "CacheReset");
                    g.writeBooleanField("success", false);
                });
            }
        }
    }

    /** Follows the request's state after an event that may have changed it. */
    void requestChanged(String requestId, EngineState after, long ts, LogEntry entry) throws IOException {
        RequestState live = after.heldRequest(requestId);
        RequestTrack track = requests.get(requestId);
        if (track == null) {
            if (live == null) {
                return; // unknown or long retired: nothing to show
            }
            track = new RequestTrack(requestId, FIRST_REQUEST_PID + (int) live.ordinal());
            requests.put(requestId, track);
        }
        RequestStatus status = after.statusOf(requestId);
        String phase = live == null ? null : live.isTerminal() ? status + ", settling" : status.name();
        boolean changed = !Objects.equals(phase, track.phase);
        boolean shown = open && shows(track);
        if (changed && track.sliceOpen) {
            out.end(track.pid, STATE_TID, ts, Args.NONE);
            track.sliceOpen = false;
        }
        if (status != null && status.isTerminal() && !track.terminal) {
            track.terminal = true;
            if (shown) {
                name(track);
                String reason = entry.raw().path("reason").asText(null);
                out.instant(track.pid, STATE_TID, reason == null ? status.name() : status + " " + reason, ts, "t",
                        LogTrace.fieldsOf(entry));
            }
        }
        track.phase = phase;
        if (changed && phase != null && shown) {
            begin(track, ts, g -> {
                g.writeNumberField("seq", entry.seq());
                g.writeStringField("cause", entry.type());
            });
        }
        if (live == null) {
            requests.remove(requestId);
        }
    }

    /** An instant on a request's state track; {@code false} when that request has no track shown. */
    boolean instantOnRequest(String requestId, String name, long ts, Args args) throws IOException {
        RequestTrack track = requestId == null ? null : requests.get(requestId);
        if (track == null || !open || !shows(track)) {
            return false;
        }
        name(track);
        out.instant(track.pid, STATE_TID, name, ts, "t", args);
        return true;
    }

    private boolean shows(RequestTrack track) {
        return window.shows(track.requestId);
    }

    private void begin(RequestTrack track, long ts, Args args) throws IOException {
        name(track);
        out.begin(track.pid, STATE_TID, track.phase, ts, args);
        track.sliceOpen = true;
    }

    private void beginJob(JobTrack job, long ts, Args args) throws IOException {
        jobSlices++;
        out.asyncBegin(job.pid, job.kind, job.kind, job.jobId, ts, args);
        job.sliceOpen = true;
    }

    private void endJob(JobTrack job, long ts, Args args) throws IOException {
        if ("store".equals(job.kind)) {
            stores--;
        } else {
            loads--;
        }
        if (job.sliceOpen) {
            out.asyncEnd(job.pid, job.kind, job.kind, job.jobId, ts, args);
            job.sliceOpen = false;
        }
    }

    private void name(RequestTrack track) throws IOException {
        if (!track.named) {
            track.named = true;
            out.processName(track.pid, "request " + track.requestId, track.pid);
            out.threadName(track.pid, STATE_TID, "state");
        }
    }
}
