package io.kvledger.simulation;

import io.kvledger.domain.command.CompleteTransfer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The simulated worker ranks. A transfer physically reads (store) or writes (load) its GPU blocks from
 * when it is scheduled until it is done, a few steps later; a store is started only at the step after
 * its scheduling, as vLLM does. A flush makes it done at once. Once done, each of the {@code ranks}
 * reports a completion, each delayed on its own (so they arrive reordered); some report failure and
 * some are sent twice.
 */
final class Workers {

    /** A transfer physically in flight. */
    record Transfer(long jobId, boolean store, String requestId, List<Integer> blocks, List<String> keys, long scheduledAt,
                    long doneAt) {

        /** A store of this step is submitted after this step's forward pass, which computes what it reads. */
        boolean startsAfterPassOf(String computing, long now) {
            return store && scheduledAt == now && requestId.equals(computing);
        }
    }

    private record Completion(long deliverAt, long order, long jobId, boolean success) {
    }

    private static final double DUPLICATE_RATE = 0.01;

    private final SplittableRandom random;
    private final int ranks;
    private final double failRate;
    private final TreeMap<Long, Transfer> inFlight = new TreeMap<>();
    private final Map<Integer, List<Transfer>> byBlock = new HashMap<>();
    private final Set<Long> everScheduled = new HashSet<>();
    /** How many loads physically in flight read each key. */
    private final Map<String, Integer> loading = new HashMap<>();
    private final PriorityQueue<Completion> outbox = new PriorityQueue<>(
            (a, b) -> a.deliverAt != b.deliverAt ? Long.compare(a.deliverAt, b.deliverAt) : Long.compare(a.order, b.order));

    Workers(SplittableRandom random, int ranks, double failRate) {
        this.random = random;
        this.ranks = ranks;
        this.failRate = failRate;
    }

    void start(long jobId, boolean store, String requestId, List<Integer> blocks, List<String> keys, long now) {
        long doneAt = now + (store ? 1 : 0) + 1 + geometric(0.5);
        Transfer transfer = new Transfer(jobId, store, requestId, List.copyOf(blocks), List.copyOf(keys), now, doneAt);
        everScheduled.add(jobId);
        inFlight.put(jobId, transfer);
        for (Integer block : blocks) {
            byBlock.computeIfAbsent(block, b -> new ArrayList<>(1)).add(transfer);
        }
        if (!store) {
            transfer.keys().forEach(key -> loading.merge(key, 1, Integer::sum));
        }
    }

    boolean wasScheduled(long jobId) {
        return everScheduled.contains(jobId);
    }

    /** The host waits for the job: it is done now (a no-op when it already is). */
    void flush(long jobId, long now) {
        Transfer transfer = inFlight.get(jobId);
        if (transfer != null) {
            done(transfer, now);
        }
    }

    /** Transfers whose time has come are done; their completions are queued. */
    void progress(long now) {
        List<Transfer> due = new ArrayList<>();
        for (Transfer transfer : inFlight.values()) {
            if (transfer.doneAt() <= now) {
                due.add(transfer);
            }
        }
        due.forEach(transfer -> done(transfer, now));
    }

    /** The completions that arrive at this step, in their (shuffled) order of arrival. */
    List<CompleteTransfer> arriving(long now) {
        List<CompleteTransfer> arriving = new ArrayList<>();
        while (!outbox.isEmpty() && outbox.peek().deliverAt <= now) {
            Completion completion = outbox.poll();
            arriving.add(new CompleteTransfer(completion.jobId, completion.success));
        }
        return arriving;
    }

    /** The transfers physically reading or writing {@code block}. */
    List<Transfer> on(int block) {
        return byBlock.getOrDefault(block, List.of());
    }

    /** Whether a load physically in flight still reads {@code key} from the CPU tier. */
    boolean isLoading(String key) {
        return loading.containsKey(key);
    }

    boolean idle() {
        return inFlight.isEmpty() && outbox.isEmpty();
    }

    int inFlightCount() {
        return inFlight.size();
    }

    private void done(Transfer transfer, long now) {
        inFlight.remove(transfer.jobId());
        for (Integer block : transfer.blocks()) {
            List<Transfer> list = byBlock.get(block);
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) == transfer) { // by identity: a record's equals compares its lists
                    list.remove(i);
                    break;
                }
            }
            if (list.isEmpty()) {
                byBlock.remove(block);
            }
        }
        if (!transfer.store()) {
            transfer.keys().forEach(key -> loading.merge(key, -1, (count, one) -> count + one == 0 ? null : count + one));
        }
        for (int rank = 0; rank < ranks; rank++) {
            boolean success = random.nextDouble() >= failRate;
            send(transfer.jobId(), success, now + 1 + geometric(0.6));
            if (random.nextDouble() < DUPLICATE_RATE) {
                send(transfer.jobId(), success, now + 1 + geometric(0.3));
            }
        }
    }

    private void send(long jobId, boolean success, long deliverAt) {
        outbox.add(new Completion(deliverAt, random.nextLong(), jobId, success));
    }

    /** Failures before the first success, each try succeeding with probability {@code p}. */
    private int geometric(double p) {
        int n = 0;
        while (n < 20 && random.nextDouble() >= p) {
            n++;
        }
        return n;
    }
}
