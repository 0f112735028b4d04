package io.kvledger.simulation;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.application.check.CheckCode;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.finding.FindingCode;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/**
 * What the simulated host checks online, from its own side: it never writes a GPU block that a
 * transfer still physically reads or writes (having waited for every flush the engine asked for), it
 * is only asked to free blocks it gave the request, transfers it is asked to wait for exist, a chunk a
 * load still reads is not evicted, the tier stays within capacity, and it is refused nothing but late
 * or repeated completions. Findings carry the seq of the step's last event.
 */
final class HostChecks {

    /** Steps between two comparisons of every table entry with the engine's (the sizes are compared every step). */
    static final int WHOLE_TABLES_EVERY = 64;

    private final List<Finding> findings = new ArrayList<>();
    /**
     * Per GPU block, the entries of the table being checked that name it and no transfer block has matched yet:
     * a scratch count of {@link #transferScheduled}, all zero between calls (a job is checked in its table's length
     * without a map per job).
     */
    private int[] held = new int[64];
    private long seq;

    void at(long lastSeq) {
        this.seq = lastSeq;
    }

    List<Finding> drain() {
        List<Finding> drained = List.copyOf(findings);
        findings.clear();
        return drained;
    }

    /** Blocks handed out fresh are about to be written: no transfer may still touch them. */
    void allocated(String requestId, List<Integer> fresh, Workers workers) {
        for (Integer block : fresh) {
            for (Workers.Transfer transfer : workers.on(block)) {
                fail(AuditCode.REUSE_WITHOUT_FLUSH, requestId, "block " + block + " is handed out while job " + transfer.jobId()
                        + " (" + (transfer.store() ? "store" : "load") + " of " + transfer.requestId()
                        + ") still " + (transfer.store() ? "reads" : "writes") + " it, and no flush was asked for");
            }
        }
    }

    /** The forward pass writes the KV of tokens {@code from .. to-1} into the request's blocks, in every group. */
    void computed(SimRequest request, int from, int to, HostGroups groups, Workers workers, long now) {
        for (int g = 0; g < groups.count(); g++) {
            int blockSize = groups.blockSize(g);
            List<Integer> table = request.table(g);
            int last = Math.min((to - 1) / blockSize, table.size() - 1);
            for (int slot = from / blockSize; slot <= last; slot++) {
                Integer block = table.get(slot);
                if (block == null) {
                    fail(CheckCode.COMPUTE_BEYOND_TABLE, request.id, "the forward pass writes slot " + slot + " of group " + g
                            + ", a null entry (tokens " + from + " to " + to + ")");
                    continue;
                }
                for (Workers.Transfer transfer : workers.on(block)) {
                    if (transfer.startsAfterPassOf(request.id, now)) {
                        continue;
                    }
                    fail(CheckCode.WRITE_DURING_TRANSFER, request.id, "the forward pass writes block " + block + " (slot " + slot
                            + (groups.count() == 1 ? "" : " of group " + g) + ") while job " + transfer.jobId() + " of "
                            + transfer.requestId() + " still " + (transfer.store() ? "reads" : "writes") + " it");
                }
            }
            if (to > table.size() * blockSize) {
                fail(CheckCode.COMPUTE_BEYOND_TABLE, request.id, "tokens up to " + to + " computed with " + table.size() + " blocks"
                        + (groups.count() == 1 ? "" : " in group " + g));
            }
        }
    }

    /** A transfer's blocks must be blocks the host gave the request in that group (and a load's no other transfer touches). */
    void transferScheduled(long jobId, boolean store, SimRequest request, PerGroup<Integer> blocks, Workers workers) {
        if (request == null) {
            fail(AuditCode.STORE_BEYOND_ALLOCATED, null, "job " + jobId + " is for a request the host does not know");
            return;
        }
        for (int g = 0; g < blocks.groupCount(); g++) {
            List<Integer> table = request.table(g);
            for (Integer block : table) { // each table entry names one block once, as List.remove would
                if (block != null) {
                    if (block >= held.length) {
                        held = java.util.Arrays.copyOf(held, Math.max(block + 1, 2 * held.length));
                    }
                    held[block]++;
                }
            }
            for (Integer block : blocks.group(g)) {
                if (block != null && block >= 0 && block < held.length && held[block] > 0) {
                    held[block]--;
                } else {
                    fail(AuditCode.STORE_BEYOND_ALLOCATED, request.id, "job " + jobId + " names block " + block
                            + ", which the host did not give the request (table " + table
                            + (blocks.groupCount() == 1 ? "" : " of group " + g) + ")");
                }
                if (block != null && !store && !workers.on(block).isEmpty()) {
                    fail(CheckCode.WRITE_DURING_TRANSFER, request.id, "load " + jobId + " writes block " + block
                            + " while job " + workers.on(block).get(0).jobId() + " still touches it");
                }
            }
            for (Integer block : table) {
                if (block != null) {
                    held[block] = 0;
                }
            }
        }
    }

    /**
     * Each group's table as the engine folded it is the host's (null entries and freed positions included):
     * the sizes after every step, the entries every {@link #WHOLE_TABLES_EVERY} steps.
     */
    void tablesMatch(SimRequest request, RequestState engine, long now) {
        if (engine.tableCount() != request.tables.size() && !(engine.tableCount() == 1 && request.tables.size() == 1)) {
            fail(CheckCode.HOST_DESYNC, request.id, "the engine keeps " + engine.tableCount() + " tables, the host "
                    + request.tables.size());
            return;
        }
        boolean whole = now % WHOLE_TABLES_EVERY == 0;
        for (int g = 0; g < request.tables.size(); g++) {
            List<Integer> host = request.table(g);
            BlockTable folded = engine.table(g);
            if (folded.size() != host.size() || (whole && !sameEntries(folded, host))) {
                fail(CheckCode.HOST_DESYNC, request.id, "group " + g + ": the engine's table is " + folded + ", the host's " + host);
            }
        }
    }

    private static boolean sameEntries(BlockTable folded, List<Integer> host) {
        for (int i = 0; i < host.size(); i++) {
            if (!java.util.Objects.equals(folded.get(i), host.get(i))) {
                return false;
            }
        }
        return true;
    }

    void flushOfUnknownJob(long jobId) {
        fail(CheckCode.FLUSH_OF_UNKNOWN_JOB, null, "FlushRequired names job " + jobId + ", which was never scheduled");
    }

    void releasedUnheld(String requestId, int block) {
        fail(CheckCode.RELEASE_OF_UNHELD_BLOCK, requestId, "block " + block + " is released but the request does not hold it");
    }

    void evictedWhileLoading(String key) {
        fail(CheckCode.PINNED_EVICTED, null, "chunk " + key + " is evicted while a load still reads it");
    }

    void tier(int size, int capacity) {
        if (size > capacity) {
            fail(AuditCode.TIER_OVER_CAPACITY, null, "the tier holds " + size + " chunks, capacity " + capacity);
        }
    }

    void rejected(RejectionCode code, String requestId, String message) {
        if (code != RejectionCode.JOB_ALREADY_COMPLETE && code != RejectionCode.STALE_JOB) {
            fail(CheckCode.UNEXPECTED_REJECTION, requestId, code + ": " + message);
        }
    }

    void fail(FindingCode code, String requestId, String reason) {
        findings.add(new Finding(seq, code, requestId, reason));
    }
}
