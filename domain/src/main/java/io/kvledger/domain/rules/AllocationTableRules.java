package io.kvledger.domain.rules;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The table rules of contract 7.3 for an allocation with KV cache groups: a null entry only below
 * {@code first_g(c + externalTokens)}, no block the request's tables already hold, none another request's
 * sliding-window table still holds (outside the GPU-hit exemption). The decision refuses what breaks one;
 * the audit names the code of what a log's allocation broke. One place, so the two never drift apart.
 */
public final class AllocationTableRules {

    /** Which rule an allocation breaks. */
    public enum Rule { NULL_INSIDE_WINDOW, OWN_BLOCK, STILL_HELD }

    /** The first rule broken, with the reason a rejection gives. */
    public record Broken(Rule rule, String reason) {
    }

    /** Up to this many entry compares a block is looked for in the tables themselves, past it in a set of them. */
    private static final int SCAN_LIMIT = 4096;

    private AllocationTableRules() {
    }

    /** The first table rule {@code command} breaks on {@code state} (group by group, entry by entry); {@code null} when none. */
    public static Broken firstBroken(EngineState state, RequestState request, AllocateBlocks command) {
        EngineConfig config = state.config();
        long reach = (long) request.computed() + command.externalTokens();
        boolean exempt = request.status() == RequestStatus.WAITING || request.status() == RequestStatus.PREEMPTED;
        Set<Integer> own = null;
        boolean scan = scanEnough(request, command);
        for (int g = 0; g < config.groupCount(); g++) {
            KvCacheGroup group = config.group(g);
            List<Integer> ids = command.blockIds().group(g);
            int base = request.table(g).size();
            int first = group.firstInWindow(reach);
            int gpuHitEntries = request.computed() / group.blockSize();
            for (int i = 0; i < ids.size(); i++) {
                Integer block = ids.get(i);
                int position = base + i;
                if (block == null) {
                    if (position >= first) {
                        return new Broken(Rule.NULL_INSIDE_WINDOW, "blockIds[" + g + "][" + i + "] is null at position "
                                + position + ", inside the window (first_g(" + reach + ") = " + first + ")");
                    }
                    continue;
                }
                if (own == null && !scan) {
                    own = heldBy(request);
                }
                if (scan ? holds(request, block) : own.contains(block)) {
                    return new Broken(Rule.OWN_BLOCK, "block " + block + " is already in the tables of request " + request.requestId());
                }
                if (state.windowHolders(block) > 0 && !(exempt && position < gpuHitEntries)) {
                    return new Broken(Rule.STILL_HELD, "block " + block + " is still held by a sliding-window table of another request");
                }
            }
        }
        return null;
    }

    /** Whether looking each named block up in the tables costs at most {@link #SCAN_LIMIT} compares. */
    private static boolean scanEnough(RequestState request, AllocateBlocks command) {
        long entries = 0;
        for (int g = 0; g < request.tableCount(); g++) {
            entries += request.table(g).size();
        }
        long named = 0;
        for (List<Integer> ids : command.blockIds().lists()) {
            named += ids.size();
        }
        return named * entries <= SCAN_LIMIT;
    }

    private static boolean holds(RequestState request, int block) {
        for (int g = 0; g < request.tableCount(); g++) {
            if (request.table(g).indexOf(block) >= 0) {
                return true;
            }
        }
        return false;
    }

    private static Set<Integer> heldBy(RequestState request) {
        Set<Integer> held = new HashSet<>();
        for (int g = 0; g < request.tableCount(); g++) {
            for (Integer block : request.table(g)) {
                if (block != null) {
                    held.add(block);
                }
            }
        }
        return held;
    }
}
