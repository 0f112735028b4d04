package io.kvledger.application.check;

import io.kvledger.application.finding.Finding;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.domain.event.EngineEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogCheckTest {

    /** A check that reports one finding per event and one more when the log ends. */
    private static LogCheck reporting(String name) {
        return new LogCheck() {
            @Override
            public List<Finding> check(long seq, EngineEvent event) {
                return List.of(new Finding(seq, CheckCode.NOT_CONFIGURED, null, name + " at event"));
            }

            @Override
            public List<Finding> finish() {
                return List.of(new Finding(0, CheckCode.NOT_CONFIGURED, null, name + " at the end"));
            }
        };
    }

    @Test
    void bothChecksAreAskedAtEachEventThisOnesFindingsFirst() {
        List<Finding> findings = reporting("a").and(reporting("b")).check(7, null);

        assertEquals(List.of("a at event", "b at event"), findings.stream().map(Finding::reason).toList());
        assertEquals(List.of(7L, 7L), findings.stream().map(Finding::seq).toList());
    }

    @Test
    void bothChecksAreFinishedSoTheLastCommandOfEitherIsJudged() {
        List<Finding> findings = reporting("a").and(reporting("b")).finish();

        assertEquals(List.of("a at the end", "b at the end"), findings.stream().map(Finding::reason).toList());
    }

    @Test
    void aCheckWithNothingToSayLeavesTheOthersFindingsAsTheyAre() {
        LogCheck silent = (seq, event) -> List.of();

        assertEquals(List.of("b at the end"), silent.and(reporting("b")).finish().stream().map(Finding::reason).toList());
        assertEquals(List.of("a at event"), reporting("a").and(silent).check(1, null).stream().map(Finding::reason).toList());
    }
}
