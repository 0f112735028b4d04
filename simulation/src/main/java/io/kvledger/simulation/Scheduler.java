package io.kvledger.simulation;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Plans one scheduler step the way vLLM's scheduler drives the connector: admissions of the requests
 * whose lookup was answered last step (with their loads), workers' completions, the outputs of the last
 * forward pass (sampled tokens, rejected drafts, finishes), aborts, then this step's forward pass under
 * a token budget (chunked prefill, decode with drafts and lookahead blocks, preemption when blocks run
 * out), a rare cache reset, lookups of waiting requests and new arrivals.
 */
final class Scheduler {

    private static final int WAITING_LIMIT = 48;
    private static final double STOP_TOKEN_RATE = 0.02;
    /** Preemptions without pressure one request may get: beyond this it is left to run, so it always ends. */
    static final int UNFORCED_PREEMPTIONS = 2;

    private final SimulatedHost host;
    private final SimulationOptions options;
    private final SplittableRandom random;
    private final Arrivals arrivals;
    private List<EngineCommand> step;
    /** Whether this step preempted a request to make room (vLLM then admits nobody in this step). */
    private boolean preemptedForRoom;
    private long now;

    Scheduler(SimulatedHost host, SplittableRandom random, Arrivals arrivals) {
        this.host = host;
        this.options = host.options;
        this.random = random;
        this.arrivals = arrivals;
    }

    List<EngineCommand> plan(long now) {
        this.now = now;
        step = new ArrayList<>();
        preemptedForRoom = false;
        List<SimRequest> live = new ArrayList<>(host.requests.values());
        live.forEach(this::admit);
        step.addAll(host.workers.arriving(now));
        for (SimRequest request : live) {
            if (request.pendingDrafts >= 0 && request.isRunning()) {
                output(request);
            }
        }
        for (SimRequest request : live) {
            if (!request.terminalSent && request.abortAt >= 0 && request.abortAt <= now) {
                step.add(new AbortRequest(request.id));
                request.terminalSent = true;
                host.dropAdmission(request);
            }
        }
        if (random.nextDouble() < options.preemptRate()) {
            List<SimRequest> running = live.stream().filter(SimRequest::isRunning).toList();
            if (!running.isEmpty()) {
                SimRequest chosen = running.get(random.nextInt(running.size()));
                if (chosen.unforcedPreemptions < UNFORCED_PREEMPTIONS) {
                    chosen.unforcedPreemptions++;
                    preempt(chosen);
                }
            }
        }
        forwardPass(live);
        if (random.nextDouble() < options.resetRate()) {
            step.add(new ResetCache());
        }
        lookups(live);
        arrive(now);
        return step;
    }

    /**
     * A request whose lookup was answered gets its GPU-hit blocks and, for a load, the blocks it loads into,
     * in every group (a sliding group's positions below the window of the hit end get the null block).
     */
    private void admit(SimRequest request) {
        SimRequest.Admission admission = request.admission;
        if (admission == null || !admission.answered || request.terminalSent) {
            return;
        }
        HostGroups groups = host.groups;
        int external = admission.externalTokens;
        int end = admission.hitTokens + external;
        int[] entries = new int[groups.count()];
        int needed = 0;
        for (int g = 0; g < groups.count(); g++) {
            int hits = admission.hitBlocks.get(g).size();
            entries[g] = external == 0 ? hits : groups.loadEntries(g, end);
            int first = groups.group(g).firstInWindow(end);
            for (int slot = hits; slot < entries[g]; slot++) {
                needed += slot < first ? 0 : 1;
            }
        }
        if (host.pool.freeCount() < needed) {
            host.dropAdmission(request); // looked up again later
            return;
        }
        List<Integer> fresh = host.pool.take(needed);
        List<List<Integer>> lists = new ArrayList<>(groups.count());
        int taken = 0;
        for (int g = 0; g < groups.count(); g++) {
            List<Integer> blocks = new ArrayList<>(admission.hitBlocks.get(g));
            int first = groups.group(g).firstInWindow(end);
            for (int slot = blocks.size(); slot < entries[g]; slot++) {
                if (slot < first) {
                    blocks.add(null);
                    request.loadedWithNulls = true;
                } else {
                    blocks.add(fresh.get(taken++));
                }
            }
            request.table(g).addAll(blocks);
            lists.add(blocks);
        }
        request.freshBlocks.add(fresh);
        request.admission = null;
        request.status = external > 0 ? RequestStatus.LOADING : RequestStatus.RUNNING;
        step.add(new AllocateBlocks(request.id, PerGroup.of(lists), external));
    }

    /** Sampled tokens (the accepted drafts and one more), the rejected drafts, and maybe the finish. */
    private void output(SimRequest request) {
        int drafts = request.pendingDrafts;
        request.pendingDrafts = -1;
        int sampled = 1 + (drafts > 0 ? random.nextInt(drafts + 1) : 0);
        boolean stop = random.nextDouble() < STOP_TOKEN_RATE;
        if (stop) {
            sampled = 1 + random.nextInt(sampled);
        }
        boolean finished = stop || request.generated + sampled >= request.outputTarget;
        sampled = Math.min(sampled, Math.max(1, request.outputTarget - request.generated));
        List<Integer> tokens = new ArrayList<>(sampled);
        for (int i = 0; i < sampled; i++) {
            tokens.add(random.nextInt(50_000));
        }
        request.tokens.addAll(tokens);
        request.generated += sampled;
        step.add(new AppendTokens(request.id, tokens));
        int rejected = request.computed - (request.numTokens() - 1);
        if (rejected > 0) {
            step.add(new RejectTokens(request.id, rejected));
        }
        request.computed = request.numTokens() - 1;
        if (finished) {
            if (request.reportsLast) {
                step.add(new ComputeTokens(request.id, 1)); // the last token's KV, computed by the async step
            }
            step.add(new FinishRequest(request.id, stop ? FinishReason.STOPPED : FinishReason.LENGTH));
            request.terminalSent = true;
        }
    }

    /** The running requests, oldest first, each with a prefill slice or a decode step while the budget lasts. */
    private void forwardPass(List<SimRequest> live) {
        int budget = options.tokenBudget();
        for (SimRequest request : live) {
            if (!request.isRunning() || budget <= 0) {
                continue;
            }
            int c = request.computed;
            int n = request.numTokens();
            int tokens;
            int drafts = 0;
            if (c < n - 1 || (c == n - 1 && request.generated == 0)) {
                tokens = Math.min(n - c, budget); // chunked prefill (and recompute after preemption or a load)
            } else if (c == n - 1) {
                drafts = request.drafts;
                tokens = 1 + drafts;
            } else {
                continue;
            }
            if (tokens > budget) {
                continue;
            }
            if (host.groups.anySliding) {
                if (request.loadedWithNulls) {
                    request.loadedWithNulls = false; // its load ended: once running, its nulls stay below the window
                    if (host.groups.nullInsideWindow(request, c)) {
                        preempt(request); // a failed load left nulls inside the window: it cannot recompute in place
                        continue;
                    }
                }
                freeOutsideWindow(request, c);
            }
            int lookahead = drafts > 0 ? 1 : 0;
            int groupCount = host.groups.count();
            int[] added = new int[groupCount];
            int needed = 0;
            for (int g = 0; g < groupCount; g++) {
                int blockSize = host.groups.blockSize(g);
                added[g] = Math.max(0, (c + tokens + blockSize - 1) / blockSize + lookahead - request.table(g).size());
                needed += added[g];
            }
            if (needed > host.pool.freeCount()) {
                preemptYoungestOther(live, request);
                continue;
            }
            if (needed > 0) {
                List<Integer> fresh = host.pool.take(needed);
                List<List<Integer>> lists = new ArrayList<>(groupCount);
                int from = 0;
                for (int g = 0; g < groupCount; g++) {
                    List<Integer> blocks = groupCount == 1 ? fresh : fresh.subList(from, from + added[g]);
                    from += added[g];
                    request.table(g).addAll(blocks);
                    lists.add(blocks);
                }
                request.freshBlocks.add(fresh);
                step.add(new AllocateBlocks(request.id, PerGroup.of(lists), 0));
            }
            step.add(new ComputeTokens(request.id, tokens));
            request.computedAtStep = now;
            host.computes.add(new SimulatedHost.Compute(request, c, c + tokens));
            request.computed = c + tokens;
            if (c + tokens >= n) {
                request.pendingDrafts = drafts; // the pass samples: its output comes next step
            }
            budget -= tokens;
        }
    }

    /**
     * Makes room for a request that cannot get its blocks, as vLLM's scheduler does: the youngest running
     * request that has not computed in this step gives way. When none younger can and no other request
     * runs (so no one will finish and free blocks), the starved request preempts itself, letting go of
     * its blocks for the admissions and transfers that hold the rest of the pool.
     */
    private void preemptYoungestOther(List<SimRequest> live, SimRequest starved) {
        long now = this.now;
        for (int i = live.size() - 1; i >= 0; i--) {
            SimRequest candidate = live.get(i);
            if (candidate == starved) {
                if (live.stream().noneMatch(other -> other != starved && other.isRunning())) {
                    preemptedForRoom = true;
                    preempt(starved);
                }
                return; // only younger requests give way
            }
            boolean computedThisStep = candidate.computedAtStep == now;
            if (candidate.isRunning() && !computedThisStep) {
                preemptedForRoom = true;
                preempt(candidate);
                return;
            }
        }
    }

    /** vLLM's {@code remove_skipped_blocks}: the blocks the window no longer reaches go back to the pool, reported first. */
    private void freeOutsideWindow(SimRequest request, int computed) {
        List<List<Integer>> freed = new ArrayList<>(host.groups.count());
        boolean any = false;
        for (int g = 0; g < host.groups.count(); g++) {
            List<Integer> blocks = host.groups.freeOutsideWindow(request, g, computed);
            freed.add(blocks);
            any |= !blocks.isEmpty();
        }
        if (any) {
            step.add(new FreeWindowBlocks(request.id, PerGroup.of(freed)));
            for (List<Integer> blocks : freed) {
                blocks.forEach(host.pool::release);
            }
        }
    }

    private void preempt(SimRequest request) {
        step.add(new PreemptRequest(request.id));
        request.status = RequestStatus.PREEMPTED;
        request.pendingDrafts = -1;
    }

    /** Lookups for admission at the next step, with the GPU prefix hits the host's cache has. */
    private void lookups(List<SimRequest> live) {
        if (preemptedForRoom) {
            // vLLM admits no waiting request in a step that preempted: a lookup now would take GPU hits on
            // the very blocks the preemption frees, and the preempted requests would crowd out the starved one.
            return;
        }
        int admitted = 0;
        for (SimRequest request : live) {
            if (!request.terminalSent && (request.status == RequestStatus.RUNNING || request.status == RequestStatus.LOADING
                    || request.admission != null)) {
                admitted++;
            }
        }
        for (SimRequest request : live) {
            if (admitted >= options.maxRunning()) {
                return;
            }
            if (!request.isAdmittable()) {
                continue;
            }
            List<List<Integer>> hits = new ArrayList<>(host.groups.count());
            int hitTokens = host.groups.gpuHit(request, host.pool, hits);
            request.admission = new SimRequest.Admission(hits, hitTokens);
            step.add(new MatchPrefix(request.id, hitTokens));
            admitted++;
        }
    }

    private void arrive(long now) {
        long waiting = host.requests.values().stream().filter(SimRequest::isAdmittable).count();
        if (waiting >= WAITING_LIMIT) {
            return;
        }
        for (int i = arrivals.count(); i > 0; i--) {
            SimRequest request = arrivals.next(now);
            host.requests.put(request.id, request);
            step.add(new RegisterRequest(request.id, host.prompts.hash(request.tokens, host.hashBlockSize), request.maxOffloadTokens,
                    request.maxLoadTokens, request.skipReadingPrefixCache));
            if (request.mostBlocks(host.groups, options.tokenBudget()) > host.pool.size()) {
                step.add(new AbortRequest(request.id)); // it can never fit the GPU pool: refused at once
                request.terminalSent = true;
                host.refused++;
            }
        }
    }
}
