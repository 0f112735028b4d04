package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Audit and replay judge a log by its rules, not by kvledger's keys and job ids: each example's log,
 * rewritten with other keys and job ids, audits clean and replays to the same requests and tier.
 */
class ForeignRewriteTest {

    @TempDir
    Path dir;

    static java.util.stream.Stream<Path> scenarios() throws Exception {
        return LogRun.scenarios();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aRewrittenLogAuditsCleanAndReplaysToTheSameRequests(Path scenario) throws Exception {
        List<LogEntry> ours = LogRun.read(LogRun.run(scenario, dir));
        Path foreignLog = dir.resolve("foreign.jsonl");
        Files.writeString(foreignLog, ForeignRewrite.rewrite(ours));
        List<LogEntry> foreign = LogRun.read(foreignLog);

        Auditor auditor = new Auditor();
        List<Finding> violations = new ArrayList<>();
        LogFold ourFold = new LogFold();
        LogFold foreignFold = new LogFold();
        for (int i = 0; i < ours.size(); i++) {
            violations.addAll(auditor.check(foreign.get(i).seq(), foreign.get(i).event()));
            ourFold.fold(ours.get(i).seq(), ours.get(i).event());
            foreignFold.fold(foreign.get(i).seq(), foreign.get(i).event());
            assertEquals(figures(ourFold.state()), figures(foreignFold.state()), "after seq " + ours.get(i).seq());
        }

        violations.addAll(auditor.finish());
        assertEquals(List.of(), violations);
    }

    @Test
    void theRewriteChangesEveryKeyAndJobId() throws Exception {
        Path scenario = Path.of(getClass().getResource("/log-tools/shared_prefix.jsonl").toURI());
        List<LogEntry> ours = LogRun.read(LogRun.run(scenario, dir));
        Path foreignLog = dir.resolve("foreign.jsonl");
        Files.writeString(foreignLog, ForeignRewrite.rewrite(ours));
        List<LogEntry> foreign = LogRun.read(foreignLog);

        for (int i = 0; i < ours.size(); i++) {
            if (ours.get(i).raw().has("keys") && !ours.get(i).raw().get("keys").isEmpty()) {
                assertNotEquals(ours.get(i).raw().get("keys"), foreign.get(i).raw().get("keys"));
            }
            if (ours.get(i).raw().has("jobId")) {
                assertNotEquals(ours.get(i).raw().get("jobId"), foreign.get(i).raw().get("jobId"));
            }
        }
    }

    /** What a replay shows of each request (job ids aside) and of the tier. */
    private static Map<String, String> figures(EngineState state) {
        Map<String, String> figures = new TreeMap<>();
        for (RequestState r : state.requests().values()) {
            figures.put(r.requestId(), r.status() + " c=" + r.computed() + " n=" + r.numTokens() + " s=" + r.cursor()
                    + " table=" + r.blockTable() + " jobs=" + r.jobIds().size() + " match=" + r.pendingMatch());
        }
        state.retired().forEach((id, status) -> figures.put(id, "retired " + status));
        figures.put(" tier", "held=" + state.tier().size() + " ready="
                + state.tier().chunks().values().stream().filter(c -> c.ready()).count() + " fences=" + state.fences().size());
        return figures;
    }
}
