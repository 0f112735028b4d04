package io.kvledger.infrastructure.cli;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.audit.Violation;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Re-derives every job, flush and release of a log and checks the rules of contract section 4.",
                "One line per violation on stdout: seq <N> <CODE> request <ID>: <reason>."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the log keeps every rule", "1:at least one violation (listed on stdout)",
                "2:malformed input (named on stderr, with its line; violations before it are listed) or a missing file"})
final class AuditCommand implements Callable<Integer> {

    @Mixin
    LogInput input;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = Cli.stdoutWriter();
        try {
            return input.scan("audit", scan -> audit(scan, out));
        } finally {
            out.flush();
        }
    }

    /** Violations are printed as they are found, so those before a malformed line are not lost. */
    private static int audit(LogScan scan, PrintWriter out) throws IOException, MalformedLogException {
        Auditor auditor = new Auditor();
        long violations = 0;
        for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
            for (Violation violation : auditor.check(entry.seq(), entry.event())) {
                out.println(violation.line());
                violations++;
            }
        }
        return violations == 0 ? 0 : Cli.EXIT_FAILURE;
    }
}
