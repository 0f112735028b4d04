package io.kvledger.infrastructure.cli;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.audit.CommandJudgement;
import io.kvledger.application.audit.JudgementView;
import io.kvledger.application.finding.Finding;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.view.AuditExplainText;
import io.kvledger.infrastructure.view.ViewJson;
import java.util.ArrayList;
import java.util.List;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Re-derives every job, flush and release of a log and checks the rules of contract section 4.",
                "One line per violation on stdout: seq <N> <CODE> request <ID>: <reason>.",
                "With --explain SEQ: the command of event SEQ, the state before it, what the rules derive and what the log shows."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the log keeps every rule", "1:at least one violation (listed on stdout)",
                "2:malformed input (named on stderr, with its line; violations before it are listed), a missing file,"
                        + " or --explain of a seq the log has no command at"})
final class AuditCommand implements Callable<Integer> {

    @Mixin
    LogInput input;

    @Option(names = "--explain", paramLabel = "SEQ", description = "Explain the command of event SEQ: rules and log side by side.")
    Long explainSeq;

    @Option(names = "--json", description = "With --explain: JSON (schema kvledger.audit.explain/1) instead of text.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = Cli.stdoutWriter();
        try {
            return input.scan("audit", true, scan -> explainSeq == null ? audit(scan, out) : explain(scan, out));
        } finally {
            out.flush();
        }
    }

    /** Violations are printed as they are found, so those before a malformed line are not lost. */
    private static int audit(LogScan scan, PrintWriter out) throws IOException, MalformedLogException {
        Auditor auditor = new Auditor(scan.base(), null);
        long violations = 0;
        for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
            violations += print(auditor.check(entry.seq(), entry.event()), out);
        }
        violations += print(auditor.finish(), out);
        return violations == 0 ? 0 : Cli.EXIT_FAILURE;
    }

    /** Audits up to the end of the command that holds event SEQ, then shows how it was judged. */
    private int explain(LogScan scan, PrintWriter out) throws IOException, MalformedLogException {
        long seq = explainSeq;
        CommandJudgement[] judged = new CommandJudgement[1];
        Auditor auditor = new Auditor(scan.base(), judgement -> {
            if (judged[0] == null && judgement.covers(seq)) {
                judged[0] = judgement;
            }
        });
        List<Finding> findings = new ArrayList<>();
        for (LogEntry entry = scan.next(); entry != null && judged[0] == null; entry = scan.next()) {
            findings.addAll(auditor.check(entry.seq(), entry.event()));
        }
        if (judged[0] == null) {
            findings.addAll(auditor.finish());
        }
        if (judged[0] == null) {
            return Cli.fail(input.file + " has no command at seq " + seq + " (the first event, a configuration, is none)");
        }
        CommandJudgement judgement = judged[0];
        List<Finding> mine = findings.stream().filter(finding -> judgement.covers(finding.seq())).toList();
        JudgementView view = JudgementView.of(seq, judgement, mine, auditor::logKeyOf);
        if (json) {
            out.println(ViewJson.write(view));
        } else {
            AuditExplainText.print(view, out);
        }
        return mine.isEmpty() ? 0 : Cli.EXIT_FAILURE;
    }

    private static int print(java.util.List<Finding> findings, PrintWriter out) {
        for (Finding finding : findings) {
            out.println(finding.line());
        }
        return findings.size();
    }
}
