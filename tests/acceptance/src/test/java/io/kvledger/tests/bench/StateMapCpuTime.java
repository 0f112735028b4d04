package io.kvledger.tests.bench;

import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateTreeMap;
import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * The state's maps as a fold uses them, against the Vavr maps they replaced, in one process, in turn: a put
 * (one in five a remove) and a read of another key, as the fold changes and reads the state (in place, for the
 * state's maps); 400 request ids, and job ids that grow at the end and end a few hundred later. This thread's
 * CPU per operation (docs/performance.md).
 *
 * <pre>java -cp infrastructure/cli/target/kvledger.jar:tests/acceptance/target/test-classes:VAVR_JAR \
 *     io.kvledger.tests.bench.StateMapCpuTime [ROUNDS]</pre>
 *
 * (the jar no longer carries Vavr: {@code VAVR_JAR} is Vavr's own, {@code ~/.m2/repository/io/vavr/vavr/0.10.6/vavr-0.10.6.jar})
 */
public final class StateMapCpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int OPERATIONS = 5_000_000;
    private static final String[] IDS = new String[400];
    private static long sink;

    private StateMapCpuTime() {
    }

    public static void main(String[] args) {
        for (int i = 0; i < IDS.length; i++) {
            IDS[i] = "req-" + i;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        for (int round = 1; round <= rounds; round++) {
            long vavrHash = cpu(StateMapCpuTime::vavrHash);
            long inPlaceHash = cpu(StateMapCpuTime::inPlaceHash);
            long vavrTree = cpu(StateMapCpuTime::vavrTree);
            long inPlaceTree = cpu(StateMapCpuTime::inPlaceTree);
            System.out.printf(Locale.ROOT, "round %d: hash map %.1f ns/op against Vavr's %.1f (%.2fx); tree map %.1f against %.1f (%.2fx)%n",
                    round, inPlaceHash / (double) OPERATIONS, vavrHash / (double) OPERATIONS, inPlaceHash / (double) vavrHash,
                    inPlaceTree / (double) OPERATIONS, vavrTree / (double) OPERATIONS, inPlaceTree / (double) vavrTree);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    private static long cpu(Runnable work) {
        long started = THREADS.getCurrentThreadCpuTime();
        work.run();
        return THREADS.getCurrentThreadCpuTime() - started;
    }

    private static void vavrHash() {
        HashMap<String, Integer> map = HashMap.empty();
        for (int i = 0; i < OPERATIONS; i++) {
            String id = IDS[(i * 7) % IDS.length];
            map = i % 5 == 4 ? map.remove(id) : map.put(id, i);
            sink += map.getOrElse(IDS[i % IDS.length], 0);
        }
    }

    private static void inPlaceHash() {
        StateHashMap<String, Integer> map = StateHashMap.empty();
        for (int i = 0; i < OPERATIONS; i++) {
            String id = IDS[(i * 7) % IDS.length];
            map = i % 5 == 4 ? map.remove(id) : map.put(id, i);
            sink += map.getOrElse(IDS[i % IDS.length], 0);
        }
    }

    private static void vavrTree() {
        TreeMap<Long, Integer> map = TreeMap.empty();
        for (int i = 0; i < OPERATIONS; i++) {
            map = (i & 1) == 0 ? map.put((long) i, i) : map.remove((long) i - 301);
            sink += map.getOrElse((long) i - 150, 0);
        }
    }

    private static void inPlaceTree() {
        StateTreeMap<Long, Integer> map = StateTreeMap.empty();
        for (int i = 0; i < OPERATIONS; i++) {
            map = (i & 1) == 0 ? map.put((long) i, i) : map.remove((long) i - 301);
            sink += map.getOrElse((long) i - 150, 0);
        }
    }
}
