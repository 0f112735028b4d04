package io.kvledger.domain.decision;

import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.JobIds;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Builds {@code FlushRequired}: job ids ascending, block ids in the order they are named, without repeats. */
final class Flushes {

    private Flushes() {
    }

    /** The given jobs in flight and every block they read or write; {@code null} when none is in flight. */
    static FlushRequired ofJobs(EngineState state, Iterable<Long> jobIds) {
        TreeSet<Long> jobs = new TreeSet<>();
        for (Long jobId : jobIds) {
            if (state.jobs().containsKey(jobId)) {
                jobs.add(jobId);
            }
        }
        if (jobs.isEmpty()) {
            return null;
        }
        Set<Integer> blocks = new LinkedHashSet<>();
        for (Long jobId : jobs) {
            Job job = state.job(jobId);
            blocks.addAll(job.blockIds());
        }
        return new FlushRequired(new ArrayList<>(jobs), new ArrayList<>(blocks));
    }

    /** The fenced blocks among {@code handedOut} and the stores fencing them; {@code null} when none is fenced. */
    static FlushRequired ofFencedBlocks(EngineState state, List<Integer> handedOut) {
        if (state.fences().isEmpty()) {
            return null;
        }
        TreeSet<Long> jobs = new TreeSet<>();
        Set<Integer> blocks = new LinkedHashSet<>();
        for (Integer block : handedOut) {
            JobIds fencing = state.fences().getOrElse(block, null);
            if (fencing != null && !fencing.isEmpty()) {
                fencing.forEach(jobs::add);
                blocks.add(block);
            }
        }
        return jobs.isEmpty() ? null : new FlushRequired(new ArrayList<>(jobs), new ArrayList<>(blocks));
    }
}
