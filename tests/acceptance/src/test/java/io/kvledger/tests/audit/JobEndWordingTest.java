package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A finding about a job that ended before says where it ended, a completion's seq or a reset's, in the words the
 * audit has always printed: the completion rules keep only the seq and the kind of each end and word it for a
 * finding (a string made for every completion cost more than the rule's checks under C1).
 */
class JobEndWordingTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            job_completed_twice | seq 21 JOB_COMPLETED_TWICE request b: job 2 gets a completion but already ended at seq 19
            duplicate_job_id    | seq 24 DUPLICATE_JOB_ID request c: job 0 is scheduled again; a job of that id already ran and ended at seq 14
            stale_job_completed | seq 30 STALE_JOB_COMPLETED request c: job 2 gets a completion but is below staleBelowJobId 3: it ended at the cache reset of seq 28, so the rules take the completion as stale
            """)
    void givenAJobThatEndedBeforeWhenTheLogNamesItAgainThenTheFindingSaysWhereItEnded(String log, String finding)
            throws Exception {
        Path file = Path.of(JobEndWordingTest.class.getResource("/audit-corpus/" + log + ".jsonl").toURI());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", file.toString());

        assertEquals(finding + "\n", out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        assertEquals(1, exit);
    }
}
