package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.GroupKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A request makes its groups' chunk keys once, as the fold learns its hashes ({@code setGroupKeys}), and {@code key}
 * gives those: over seeded histories of appended tokens, in configs of several groups, block sizes and chunk sizes,
 * every key of every group is the prefix hash and its group's mark, the one made once is the one given again, and
 * copies that go on with other tokens (a decision's {@code withTokens}, a look-back's copy folded apart) each give
 * their own tokens' keys.
 */
class GroupKeysOfRequestTest {

    private static final List<EngineConfig> CONFIGS = List.of(
            EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(16, 128))),
            EngineConfig.DEFAULTS.withGpuBlockSize(4)
                    .withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(8, 32), KvCacheGroup.full(12))),
            EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(32, 64))));

    @Test
    void givenSeededHistoriesWhenTokensAreAppendedThenEveryGroupKeyIsItsHashAndMarkMadeOnce() {
        int checked = 0;
        for (EngineConfig config : CONFIGS) {
            for (long seed = 1; seed <= 60; seed++) {
                Random random = new Random(seed);
                RequestState request = RequestState.registered("r", 0, tokens(random, random.nextInt(200)),
                        config.hashBlockSize(), config.groupCount());
                request.setGroupKeys(config);
                RequestState other = null;
                for (int step = 0; step < 40; step++) {
                    List<Integer> more = tokens(random, random.nextInt(random.nextBoolean() ? 3 : 40));
                    if (step == 20) {
                        other = request.copy(); // folded apart from here: the two share what was made so far
                    }
                    request.setTokens(request.numTokens() + more.size(), request.hashes().append(more));
                    request.setGroupKeys(config);
                    checked += same(config, request);
                    if (other != null) {
                        List<Integer> otherTokens = tokens(random, random.nextInt(40));
                        other.setTokens(other.numTokens() + otherTokens.size(), other.hashes().append(otherTokens));
                        other.setGroupKeys(config);
                        checked += same(config, other);
                        RequestState decided = request.withTokens(request.numTokens() + 33,
                                request.hashes().append(tokens(random, 33)));
                        checked += same(config, decided); // a decision's copy, its newest keys not made
                    }
                }
                checked += same(config, request);
            }
        }
        assertTrue(checked > 50_000, "keys checked: " + checked);
    }

    /** Every key of every group against its hash and mark; group 0's is the hash itself. */
    private static int same(EngineConfig config, RequestState request) {
        int checked = 0;
        for (int g = 0; g < config.groupCount(); g++) {
            int hashesPerChunk = config.chunkTokens(g) / request.hashes().blockSize();
            for (int chunk = 0; chunk < request.keyCount(config, g); chunk++) {
                String hash = request.hashes().get((chunk + 1) * hashesPerChunk - 1);
                String key = request.key(config, g, chunk);
                assertEquals(hash + (g == 0 ? "" : "/g" + g), key, "group " + g + " chunk " + chunk);
                if (g == 0) {
                    assertSame(hash, key);
                } else {
                    assertEquals(GroupKeys.of(hash, g), key);
                }
                checked++;
            }
        }
        return checked;
    }

    @Test
    void givenARequestWhoseKeysWereMadeThenTheSameKeyIsGivenAgainAndEqualityIgnoresThem() {
        EngineConfig config = CONFIGS.get(0);
        RequestState request = RequestState.registered("r", 0, tokens(new Random(3), 100), config.hashBlockSize(),
                config.groupCount());
        RequestState plain = request.copy();
        request.setGroupKeys(config);
        assertSame(request.key(config, 1, 3), request.key(config, 1, 3), "made once, given again");
        assertTrue(plain.key(config, 1, 3) != plain.key(config, 1, 3), "without them a key is made when asked");
        assertEquals(plain, request, "the keys made are no part of the value");
        assertEquals(plain.hashCode(), request.hashCode());
    }

    private static List<Integer> tokens(Random random, int count) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(random.nextInt(1000));
        }
        return tokens;
    }
}
