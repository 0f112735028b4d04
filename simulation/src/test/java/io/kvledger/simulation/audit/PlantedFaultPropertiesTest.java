package io.kvledger.simulation.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.simulation.SimulationOptions;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.LongRange;

/**
 * Each kind of fault planted into seeded clean logs of the simulator (deterministic per seed) is found:
 * the audit reports its code at its seq, and nothing before it. A log that has no place for a kind of
 * fault is replaced by the next seed's, so no try is skipped.
 */
class PlantedFaultPropertiesTest {

    private static final int REQUESTS = 40;
    private static final int MAX_SEEDS_FOR_A_PLACE = 40;

    @Property(tries = 120)
    void everyPlantedFaultIsReportedWithItsCodeAtItsSeq(@ForAll PlantedFault fault, @ForAll @LongRange(min = 1, max = 24) long seed) {
        PlantedFault.Planted planted = null;
        long used = seed;
        for (int i = 0; planted == null && i < MAX_SEEDS_FOR_A_PLACE; i++) {
            used = seed + 7919L * i;
            planted = fault.plant(run(used).events(), new Random(used));
        }
        assertTrue(planted != null, fault + " found no place in " + MAX_SEEDS_FOR_A_PLACE + " seeded logs from seed " + seed);

        PlantedFault.Planted fault0 = planted;
        List<Finding> findings = SimulatedRun.audit(planted.log());

        long seq = planted.seq();
        String shown = "seed " + used + ", " + fault + " at seq " + seq + ":\n"
                + String.join("\n", findings.stream().limit(8).map(Finding::line).toList());
        assertEquals(List.of(), findings.stream().filter(f -> f.seq() < seq).toList(), "nothing before the fault; " + shown);
        assertTrue(findings.stream().anyMatch(f -> f.seq() == seq && f.code() == fault0.code()), shown);
        // How far a fault reaches past its own event, reported with the run (docs/log-tools.md quotes it).
        Statistics.label("findings per planted fault").collect(fault, findings.size() == 1 ? "1" : findings.size() <= 3 ? "2-3" : "4+");
    }

    /** Alternating release policies and worker counts, so fences, DELAY_FREE and acknowledgements all occur. */
    static SimulatedRun run(long seed) {
        SimulationOptions options = new SimulationOptions(REQUESTS, seed, 0.15, 0.05, 0.05, 1 + (int) (seed % 2),
                seed % 3 == 0 ? ReleasePolicy.DELAY_FREE : ReleasePolicy.FENCE, 0.01);
        return SimulatedRun.of(options);
    }
}
