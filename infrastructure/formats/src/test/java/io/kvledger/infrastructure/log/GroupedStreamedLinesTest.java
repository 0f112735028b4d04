package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * In a grouped log (contract 7.2) the streaming path reads the per-group fields as the tree path does:
 * over many generated configs (one to six groups, full, sliding and eagle, different block sizes) and
 * logs of every type with lists of every length, empty groups and null blocks where 7.2 allows them,
 * both readers give the same entries, those are the events written, and the streaming path takes every
 * per-group line; a line whose shape 7.2 refuses is left to the tree path.
 */
class GroupedStreamedLinesTest {

    private static final int LOGS = 400;

    @Test
    void bothPathsReadEveryGeneratedGroupedLogAsItWasWritten() throws Exception {
        int perGroupLines = 0;
        for (int seed = 0; seed < LOGS; seed++) {
            Random random = new Random(seed);
            List<KvCacheGroup> groups = groups(random);
            List<EngineEvent> events = log(random, groups);
            byte[] bytes = lines(events);

            List<LogEntry> streamed = StreamedLinesTest.readAll(new EventLogReader(new ByteArrayInputStream(bytes)));
            List<LogEntry> tree = StreamedLinesTest.readAll(EventLogReader.treeOnly(new ByteArrayInputStream(bytes)));

            assertEquals(tree, streamed, "seed " + seed);
            assertEquals(events, streamed.stream().map(LogEntry::event).toList(), "seed " + seed);
            StreamedLines fast = new StreamedLines();
            fast.configure(groups);
            for (int i = 1; i < events.size(); i++) {
                byte[] line = EventJson.toLine(i + 1, events.get(i)).getBytes(StandardCharsets.UTF_8);
                LogEntry entry = fast.read(i + 1, line, 0, line.length, i);
                if (isPerGroup(events.get(i))) {
                    assertNotNull(entry, "seed " + seed + ": the streaming path takes " + events.get(i));
                    assertEquals(events.get(i), entry.event());
                    perGroupLines++;
                }
            }
        }
        assertTrue(perGroupLines > LOGS * 10, "per-group lines read: " + perGroupLines);
    }

    @Test
    void aShapeTheGroupsRefuseIsLeftToTheTreePath() {
        StreamedLines fast = new StreamedLines();
        fast.configure(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 8)));
        String ok = "{\"seq\": 5, \"type\": \"BlocksAllocated\", \"requestId\": \"r\", \"blockIds\": [[1, 2], [null, 3]], \"externalTokens\": 0}";
        assertNotNull(read(fast, ok));
        for (String lists : List.of("[[1, 2]]", "[[1, 2], [3], []]", "[1, 2]", "[[1, 2], 3]", "[[null, 2], [3]]", "[[1], [\"x\"]]",
                "[[1], [2147483648]]", "[[1], [1.0]]", "[[1], [[2]]]", "[[1], null]", "null", "[]")) {
            assertNull(read(fast, ok.replace("[[1, 2], [null, 3]]", lists)), lists);
        }
        String freed = "{\"seq\": 5, \"type\": \"WindowBlocksFreed\", \"requestId\": \"r\", \"blockIds\": [[], [null]]}";
        assertNull(read(fast, freed), "null only in BlocksAllocated.blockIds");
        assertNotNull(read(fast, freed.replace("null", "7")));
    }

    private static LogEntry read(StreamedLines fast, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return fast.read(5, bytes, 0, bytes.length, 4);
    }

    private static boolean isPerGroup(EngineEvent event) {
        return event instanceof BlocksAllocated || event instanceof WindowBlocksFreed || event instanceof BlocksReleased
                || event instanceof StoreJobScheduled || event instanceof LoadJobScheduled || event instanceof PrefixMatched
                || event instanceof StoreDeferred;
    }

    private static byte[] lines(List<EngineEvent> events) {
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < events.size(); i++) {
            log.append(EventJson.toLine(i + 1, events.get(i))).append('\n');
        }
        return log.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One to six groups of sizes 4, 8 or 16: full (some eagle) and sliding, in any order. */
    static List<KvCacheGroup> groups(Random random) {
        int count = 1 + random.nextInt(6);
        List<KvCacheGroup> groups = new ArrayList<>();
        for (int g = 0; g < count; g++) {
            int blockSize = 4 << random.nextInt(3);
            KvCacheGroup group = random.nextBoolean() ? KvCacheGroup.slidingWindow(blockSize, 1 + random.nextInt(64))
                    : KvCacheGroup.full(blockSize);
            groups.add(!group.isSliding() && random.nextInt(4) == 0 ? group.asEagle() : group);
        }
        return groups;
    }

    /** The config, then events of every per-group type (and the flat ones of {@link EveryEvent}) in a random order. */
    static List<EngineEvent> log(Random random, List<KvCacheGroup> groups) {
        List<EngineEvent> events = new ArrayList<>();
        events.add(EngineConfigured.of(EngineConfig.DEFAULTS.withGroups(groups)));
        List<EngineEvent> flat = EveryEvent.list().stream()
                .filter(event -> !(event instanceof EngineConfigured) && !isPerGroup(event)).toList();
        int length = 20 + random.nextInt(60);
        for (int i = 0; i < length; i++) {
            String id = "req-" + random.nextInt(5);
            long job = random.nextInt(1000);
            events.add(switch (random.nextInt(8)) {
                case 0 -> new BlocksAllocated(id, ints(random, groups, true), random.nextInt(64));
                case 1 -> new WindowBlocksFreed(id, ints(random, groups, false));
                case 2 -> new BlocksReleased(id, ints(random, groups, false));
                case 3 -> new StoreJobScheduled(job, id, ints(random, groups, false), keys(random, groups), ints(random, groups, false));
                case 4 -> new LoadJobScheduled(job, id, ints(random, groups, false), keys(random, groups), ints(random, groups, false));
                case 5 -> new PrefixMatched(id, 16 * random.nextInt(4), random.nextInt(100), ints(random, groups, false));
                case 6 -> new StoreDeferred(id, ints(random, groups, false), StoreDeferReason.values()[random.nextInt(StoreDeferReason.values().length)]);
                default -> flat.get(random.nextInt(flat.size()));
            });
        }
        return events;
    }

    /** A list per group, some empty; in a sliding group's allocation some entries the null block. */
    private static PerGroup<Integer> ints(Random random, List<KvCacheGroup> groups, boolean allocation) {
        List<List<Integer>> lists = new ArrayList<>();
        for (KvCacheGroup group : groups) {
            List<Integer> list = new ArrayList<>();
            int length = random.nextInt(4) == 0 ? 0 : random.nextInt(9);
            for (int i = 0; i < length; i++) {
                list.add(allocation && group.isSliding() && random.nextInt(3) == 0 ? null
                        : random.nextInt(10) == 0 ? Integer.MAX_VALUE - i : random.nextInt(500));
            }
            lists.add(list);
        }
        return PerGroup.of(lists);
    }

    private static PerGroup<String> keys(Random random, List<KvCacheGroup> groups) {
        List<List<String>> lists = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            List<String> list = new ArrayList<>();
            int length = random.nextInt(5);
            for (int i = 0; i < length; i++) {
                list.add(Long.toHexString(random.nextLong()) + (g == 0 ? "" : "/g" + g) + (random.nextInt(20) == 0 ? "\u00e9\"" : ""));
            }
            lists.add(list);
        }
        return PerGroup.of(lists);
    }
}
