package io.kvledger.simulation.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.audit.AuditRules;
import io.kvledger.application.finding.Finding;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/**
 * {@code audit --rules safety} (contract 9.2) reports exactly the safety findings of {@code --rules all}, in
 * their order, on simulated logs with each kind of planted fault (and on the clean logs they are planted
 * into): the selection filters what is reported and changes nothing the audit judges.
 */
class RuleClassPropertiesTest {

    private static final int MAX_SEEDS_FOR_A_PLACE = 40;

    @Property(tries = 90)
    void safetyIsExactlyTheSafetySubsetOfAll(@ForAll PlantedFault fault, @ForAll @LongRange(min = 1, max = 24) long seed) {
        PlantedFault.Planted planted = null;
        for (int i = 0; planted == null && i < MAX_SEEDS_FOR_A_PLACE; i++) {
            planted = fault.plant(PlantedFaultPropertiesTest.run(seed + 7919L * i).events(), new Random(seed + 7919L * i));
        }
        assertTrue(planted != null, fault + " found no place from seed " + seed);

        List<Finding> all = SimulatedRun.audit(planted.log());
        List<Finding> safety = SimulatedRun.audit(planted.log(), AuditRules.SAFETY);

        assertEquals(all.stream().filter(Finding::isSafety).toList(), safety, fault + ", seed " + seed);
        assertEquals(all, SimulatedRun.audit(planted.log(), AuditRules.ALL));
        Statistics.label("safety lines of a planted fault").collect(fault.code.ruleClass().label() + " code: "
                + (safety.isEmpty() ? "none" : "some"));
    }

    @Property(tries = 12)
    void aCleanSimulatedLogHasNoFindingOfEitherClass(@ForAll @LongRange(min = 1, max = 24) long seed) {
        List<Finding> all = SimulatedRun.audit(PlantedFaultPropertiesTest.run(seed).events());

        assertEquals(List.of(), all);
        assertEquals(List.of(), SimulatedRun.audit(PlantedFaultPropertiesTest.run(seed).events(), AuditRules.SAFETY));
    }
}
