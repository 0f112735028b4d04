package io.kvledger.simulation;

import io.kvledger.application.check.CheckCode;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PromptHasher;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated host's side of a step: it reacts to the engine's events in order (waits for the jobs a
 * flush names, starts transfers, frees released blocks, takes lookup answers), runs the forward pass,
 * lets transfers progress, and checks its rules all along. {@link Scheduler} plans the steps.
 */
final class SimulatedHost {

    /** A ComputeTokens the forward pass of this step carries out. */
    record Compute(SimRequest request, int from, int to) {
    }

    final SimulationOptions options;
    final HostGroups groups;
    final BlockPool pool;
    final Workers workers;
    final HostChecks checks = new HostChecks();
    /** Live requests in arrival order (an insertion-ordered map: iteration never depends on hashing). */
    final Map<String, SimRequest> requests = new LinkedHashMap<>();
    final List<Compute> computes = new ArrayList<>();
    /** Requests refused at arrival because they can never fit the GPU pool. */
    long refused;
    /**
     * Each arriving prompt hashed here, once, on the stepping thread: the engine's fold and the checking thread's
     * take the hashes from the event, and the prompts' shared prefixes hash once ({@link PromptHasher}).
     */
    final PromptHasher prompts = new PromptHasher();
    final int hashBlockSize;

    SimulatedHost(SimulationOptions options, EngineConfig config, Workers workers) {
        this.options = options;
        this.groups = new HostGroups(config);
        this.pool = new BlockPool(options.gpuBlocks());
        this.workers = workers;
        this.hashBlockSize = config.hashBlockSize();
    }

    /** Reacts to one event of this step, in log order. */
    void observe(EngineEvent event, long now) {
        if (event instanceof BlocksAllocated e) {
            SimRequest request = requests.get(e.requestId());
            List<Integer> fresh = request == null || request.freshBlocks.isEmpty() ? List.of() : request.freshBlocks.poll();
            checks.allocated(e.requestId(), fresh, workers);
        } else if (event instanceof StoreJobScheduled e) {
            checks.transferScheduled(e.jobId(), true, requests.get(e.requestId()), e.blockIds(), workers);
            workers.start(e.jobId(), true, e.requestId(), e.blockIds().flat(), e.keys().flat(), now);
        } else if (event instanceof LoadJobScheduled e) {
            checks.transferScheduled(e.jobId(), false, requests.get(e.requestId()), e.blockIds(), workers);
            workers.start(e.jobId(), false, e.requestId(), e.blockIds().flat(), e.keys().flat(), now);
        } else if (event instanceof FlushRequired e) {
            for (Long jobId : e.jobIds()) {
                if (!workers.wasScheduled(jobId)) {
                    checks.flushOfUnknownJob(jobId);
                }
                workers.flush(jobId, now);
            }
        } else if (event instanceof BlocksReleased e) {
            released(e);
        } else if (event instanceof ChunksEvicted e) {
            for (String key : e.keys()) {
                if (workers.isLoading(key)) {
                    checks.evictedWhileLoading(key);
                }
            }
        } else if (event instanceof PrefixMatched e) {
            SimRequest request = requests.get(e.requestId());
            if (request != null && request.admission != null) {
                request.admission.answered = true;
                request.admission.externalTokens = e.externalTokens();
            }
        } else if (event instanceof PrefixMatchDeferred e) {
            dropAdmission(requests.get(e.requestId()));
        } else if (event instanceof RequestPreempted e) {
            requests.get(e.requestId()).pendingDrafts = -1;
        } else if (event instanceof RequestAborted || event instanceof RequestFinished) {
            SimRequest request = requests.get(((io.kvledger.domain.event.RequestEvent) event).requestId());
            request.terminalSent = true;
            dropAdmission(request);
        } else if (event instanceof CommandRejected e) {
            checks.rejected(e.code(), e.requestId() instanceof String id ? id : null, e.message());
        }
    }

    /** After the step's events: the forward pass, the host's view of each request, transfers progress. */
    void endStep(EngineState state, long now) {
        for (Compute compute : computes) {
            checks.computed(compute.request(), compute.from(), compute.to(), groups, workers, now);
        }
        computes.clear();
        checks.tier(state.tier().size(), state.config().cpuCapacityChunks());
        Iterator<SimRequest> live = requests.values().iterator();
        while (live.hasNext()) {
            SimRequest request = live.next();
            RequestState engine = state.heldRequest(request.id);
            if (engine == null) {
                if (request.holdsBlocks()) {
                    checks.fail(CheckCode.BLOCKS_NEVER_RELEASED, request.id, "the engine settled the request while the host "
                            + "still holds " + (groups.count() == 1 ? request.table(0) : request.tables) + " for it");
                    for (List<Integer> table : request.tables) {
                        table.stream().filter(java.util.Objects::nonNull).forEach(pool::release);
                    }
                }
                live.remove();
                continue;
            }
            request.status = engine.status();
            request.computed = engine.computed();
            if (engine.numTokens() != request.numTokens()) {
                checks.fail(CheckCode.HOST_DESYNC, request.id, "the engine knows " + engine.numTokens() + " tokens, the host "
                        + request.numTokens());
            }
            checks.tablesMatch(request, engine, now);
            indexComputedBlocks(request);
        }
        workers.progress(now);
    }

    /** Full blocks whose KV is computed may serve GPU prefix hits of later requests. */
    private void indexComputedBlocks(SimRequest request) {
        for (int g = 0; g < groups.count(); g++) {
            int blockSize = groups.blockSize(g);
            List<Integer> table = request.table(g);
            int full = Math.min(Math.min(request.computed, request.numTokens()) / blockSize, table.size());
            for (int block = request.indexedBlocks[g]; block < full; block++) {
                Integer held = table.get(block);
                if (held != null) {
                    pool.index(held, request.prefixHash(g, block, blockSize));
                }
            }
            request.indexedBlocks[g] = Math.max(request.indexedBlocks[g], full);
        }
    }

    /** Takes each group's released blocks out of its table. */
    private void released(BlocksReleased event) {
        SimRequest request = requests.get(event.requestId());
        for (int g = 0; g < event.blockIds().groupCount(); g++) {
            released(event.requestId(), request, g, event.blockIds().group(g));
        }
    }

    /**
     * Takes the released blocks out of group {@code g}'s table, each one's first occurrence left, as one
     * {@code List.remove} per block would, but in one pass: a release of a whole table costs its length.
     * The pool gets the blocks back in the event's order (it hands out the last freed first). Once a table
     * holds only null entries it is empty (a release names every block it still holds).
     */
    private void released(String requestId, SimRequest request, int g, List<Integer> blocks) {
        List<Integer> table = request == null ? List.of() : request.table(g);
        if (request != null && blocks.equals(table)) {
            blocks.forEach(pool::release); // the usual case: the whole table, in table order
            table.clear();
        } else {
            Map<Integer, Integer> held = new HashMap<>();
            for (Integer block : table) {
                if (block != null) {
                    held.merge(block, 1, Integer::sum);
                }
            }
            Map<Integer, Integer> taken = new HashMap<>();
            for (Integer block : blocks) {
                if (held.getOrDefault(block, 0) > 0) {
                    held.merge(block, -1, Integer::sum);
                    taken.merge(block, 1, Integer::sum);
                    pool.release(block);
                } else {
                    checks.releasedUnheld(requestId, block);
                }
            }
            if (request != null && !taken.isEmpty()) {
                List<Integer> kept = new ArrayList<>(table.size());
                boolean blocksLeft = false;
                for (Integer block : table) {
                    Integer left = block == null ? null : taken.get(block);
                    if (left != null && left > 0) {
                        taken.put(block, left - 1);
                    } else {
                        kept.add(block);
                        blocksLeft |= block != null;
                    }
                }
                table.clear();
                if (blocksLeft) {
                    table.addAll(kept);
                }
            }
        }
        if (request != null && table.isEmpty()) {
            request.indexedBlocks[g] = 0;
            request.freedBelow[g] = 0;
            request.loadedWithNulls = false;
        }
    }

    /** Lets go of the GPU-hit blocks held for an admission that will not happen. */
    void dropAdmission(SimRequest request) {
        if (request != null && request.admission != null) {
            for (List<Integer> hits : request.admission.hitBlocks) {
                hits.stream().filter(java.util.Objects::nonNull).forEach(pool::release);
            }
            request.admission = null;
        }
    }

    boolean idle() {
        return requests.isEmpty() && workers.idle();
    }
}
