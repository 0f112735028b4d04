package io.kvledger.application.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.check.CheckCode;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.finding.RuleClass;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every audit code has the class of contract 9.2's table; the three codes with two cases take their reason's. */
class AuditCodeClassTest {

    /** Contract 9.2, the table's safety row. */
    private static final Set<String> SAFETY = Set.of("STORE_SLICE_MISMATCH", "STORE_BEYOND_BOUND", "STORE_BEYOND_ALLOCATED",
            "RELEASE_WHILE_IN_FLIGHT", "REUSE_WITHOUT_FLUSH", "TIER_OVER_CAPACITY", "UNKNOWN_JOB", "JOB_COMPLETED_TWICE",
            "LOAD_NOT_READY", "EVICTION_INVALID", "CHUNKS_STORED_MISMATCH", "KEY_MISMATCH", "ACK_MISMATCH", "JOB_MISMATCH",
            "STALE_JOB_COMPLETED", "DUPLICATE_JOB_ID", "FLUSH_MISSING", "RESET_MISMATCH", "RELEASE_MISSING", "STATE_MISMATCH",
            "EVENT_ORDER", "UNKNOWN_REQUEST", "DUPLICATE_REQUEST", "WINDOW_FREE_MISMATCH", "BLOCK_STILL_HELD",
            "NULL_ENTRY_MISMATCH", "EVICTION_MISSING", "LOAD_MISMATCH");
    /** Contract 9.2, the table's policy row. */
    private static final Set<String> POLICY = Set.of("DUPLICATE_STORE", "STORE_MISSING", "STORE_SPLIT", "STORE_WITHOUT_TRIGGER",
            "STORE_DEFERRED_MISMATCH", "EVICTION_NOT_LRU", "MATCH_MISMATCH", "FLUSH_MISMATCH", "RELEASE_MISMATCH",
            "STORE_NOT_OFFERED");

    @Test
    void everyCodeHasTheClassOfTheContractsTable() {
        Set<String> all = Arrays.stream(AuditCode.values()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
        Set<String> tabled = new TreeSet<>(SAFETY);
        tabled.addAll(POLICY);
        assertEquals(tabled, all, "the table names every code, and only codes the audit has");
        for (AuditCode code : AuditCode.values()) {
            assertEquals(SAFETY.contains(code.name()) ? RuleClass.SAFETY : RuleClass.POLICY, code.ruleClass(), code.name());
        }
    }

    @Test
    void exactlyTheThreeCodesWithACaseOfTheOtherClassReadTheirReasons() {
        List<AuditCode> mixed = Arrays.stream(AuditCode.values()).filter(AuditCode::hasCases).toList();
        assertEquals(List.of(AuditCode.STORE_BEYOND_BOUND, AuditCode.MATCH_MISMATCH, AuditCode.RELEASE_MISMATCH), mixed);
        for (AuditCode code : mixed) {
            assertEquals(RuleClass.SAFETY, code.ruleClass(AuditCode.withCase("r", RuleClass.SAFETY, "why")), code.name());
            assertEquals(RuleClass.POLICY, code.ruleClass(AuditCode.withCase("r", RuleClass.POLICY, "why")), code.name());
            assertEquals(code.ruleClass(), code.ruleClass("a reason that names no case"), code.name());
        }
        // A code without cases keeps its class whatever its reason says.
        assertEquals(RuleClass.POLICY, AuditCode.STORE_MISSING.ruleClass(AuditCode.withCase("r", RuleClass.SAFETY, "why")));
        assertEquals(RuleClass.SAFETY, CheckCode.PINNED_EVICTED.ruleClass(), "the checks' own codes are bugs of the engine");
    }

    @Test
    void aSafetyCaseJoinsAPolicyFindingOfTheSameCodeAtTheSameEventSoTheLineIsSafety() {
        Findings findings = new Findings(7);
        findings.add(AuditCode.RELEASE_MISMATCH, "r1", AuditCode.withCase("first", RuleClass.POLICY, "a"));
        findings.add(AuditCode.RELEASE_MISMATCH, "r1", AuditCode.withCase("second", RuleClass.SAFETY, "b"));
        findings.add(AuditCode.RELEASE_MISMATCH, "r1", AuditCode.withCase("third", RuleClass.POLICY, "c"));

        assertEquals(1, findings.list().size(), "one line per code per event");
        Finding line = findings.list().get(0);
        assertTrue(line.isSafety(), line.line());
        assertTrue(line.reason().startsWith("first; policy case: a; second; safety case: b"), line.line());
    }

    @Test
    void rulesSelectionsKeepTheirFindingsInOrder() {
        Finding policy = new Finding(3, AuditCode.STORE_MISSING, "r", "x");
        Finding safety = new Finding(4, AuditCode.TIER_OVER_CAPACITY, "r", "y");
        Finding boundPolicy = new Finding(5, AuditCode.STORE_BEYOND_BOUND, "r", AuditCode.withCase("z", RuleClass.POLICY, "cap"));
        List<Finding> found = List.of(policy, safety, boundPolicy);

        assertSame(found, AuditRules.ALL.kept(found));
        assertEquals(List.of(safety), AuditRules.SAFETY.kept(found));
        assertFalse(boundPolicy.isSafety());
        assertEquals(AuditRules.SAFETY, AuditRules.of("safety"));
        assertEquals(AuditRules.ALL, AuditRules.of("all"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> AuditRules.of("policy"));
        assertEquals("--rules takes all or safety, not 'policy'", bad.getMessage());
    }
}
