package io.kvledger.infrastructure.simulation;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
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

    /** A request whose lookup was answered gets its GPU-hit blocks and, for a load, the blocks it loads into. */
    private void admit(SimRequest request) {
        SimRequest.Admission admission = request.admission;
        if (admission == null || !admission.answered || request.terminalSent) {
            return;
        }
        int external = admission.externalTokens;
        int needed = external == 0 ? 0 : (admission.hitBlocks.size() * host.blockSize + external) / host.blockSize
                - admission.hitBlocks.size();
        if (host.pool.freeCount() < needed) {
            host.dropAdmission(request); // looked up again later
            return;
        }
        List<Integer> fresh = host.pool.take(needed);
        List<Integer> blocks = new ArrayList<>(admission.hitBlocks);
        blocks.addAll(fresh);
        request.table.addAll(blocks);
        request.freshBlocks.add(fresh);
        request.admission = null;
        request.status = external > 0 ? RequestStatus.LOADING : RequestStatus.RUNNING;
        step.add(new AllocateBlocks(request.id, blocks, external));
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
            int lookahead = drafts > 0 ? 1 : 0;
            int needed = (c + tokens + host.blockSize - 1) / host.blockSize + lookahead - request.table.size();
            if (needed > host.pool.freeCount()) {
                preemptYoungestOther(live, request);
                continue;
            }
            if (needed > 0) {
                List<Integer> fresh = host.pool.take(needed);
                request.table.addAll(fresh);
                request.freshBlocks.add(fresh);
                step.add(new AllocateBlocks(request.id, fresh, 0));
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
            List<Integer> hits = new ArrayList<>();
            for (int block = 0; (block + 1) * host.blockSize <= request.numTokens() - 1; block++) {
                int held = host.pool.lookup(request.prefixHash(block, host.blockSize));
                if (held < 0) {
                    break;
                }
                host.pool.share(held);
                hits.add(held);
            }
            request.admission = new SimRequest.Admission(hits);
            step.add(new MatchPrefix(request.id, hits.size() * host.blockSize));
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
            step.add(new RegisterRequest(request.id, List.copyOf(request.tokens)));
            if (request.mostBlocks(host.blockSize) > host.pool.size()) {
                step.add(new AbortRequest(request.id)); // it can never fit the GPU pool: refused at once
                request.terminalSent = true;
                host.refused++;
            }
        }
    }
}
