package io.kvledger.application.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.finding.RuleClass;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.DeferReason;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cases of {@code MATCH_MISMATCH} (contract 9.2): a hit for a request that may not read the prefix cache is
 * safety; every other lookup difference is policy. Until the request's {@code skipReadingPrefixCache} (contract
 * 9.1) is in the audit's state, the audit passes {@code false}; the rule itself is tested here for both values.
 */
class MixedCasesTest {

    private static final PrefixMatched HIT = new PrefixMatched("r", 0, 8, List.of(0, 1));
    private static final PrefixMatched MISS = new PrefixMatched("r", 0, 0, List.of());

    @Test
    void aHitForARequestThatSkipsReadingThePrefixCacheIsTheSafetyCase() {
        String reason = MixedCases.match("the rules give X, the log shows Y", HIT, true);

        assertEquals(RuleClass.SAFETY, AuditCode.MATCH_MISMATCH.ruleClass(reason), reason);
        assertEquals("the rules give X, the log shows Y; safety case: a hit of 8 tokens for a request with "
                + "skipReadingPrefixCache, whose KV must be computed", reason);
    }

    @Test
    void everyOtherLookupDifferenceIsThePolicyCase() {
        for (String reason : List.of(MixedCases.match("x", HIT, false), MixedCases.match("x", MISS, true),
                MixedCases.match("x", new PrefixMatchDeferred("r", 0, DeferReason.CHUNK_WRITE_IN_FLIGHT), true))) {
            assertEquals(RuleClass.POLICY, AuditCode.MATCH_MISMATCH.ruleClass(reason), reason);
        }
    }
}
