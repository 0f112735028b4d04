package io.kvledger.infrastructure.cli;

import io.kvledger.application.audit.AuditRules;
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
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Re-derives every job, flush and release of a log and checks the rules of contract section 4.",
                "One line per violation on stdout: seq <N> <CODE> request <ID>: <reason>.",
                "Each finding is of the safety class (KV data or accounting broken: a bug whatever the engine's policies)"
                        + " or the policy class (another decision than the contract's where that one would be safe too);"
                        + " contract 9.2, docs/log-tools.md lists each code's class.",
                "With --rules safety: only the safety findings, in the same order and format.",
                "With --explain SEQ: the command of event SEQ, the state before it, what the rules derive and what the log"
                        + " shows, and the class of each finding."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the log keeps every rule (with --rules safety: every safety rule)",
                "1:at least one violation (listed on stdout; with --rules safety, one of the safety class)",
                "2:malformed input (named on stderr, with its line; violations before it are listed), a missing file,"
                        + " or --explain of a seq the log has no command at; a usage error (no log, two logs, an unknown"
                        + " option, --rules without all or safety, or given twice)"})
final class AuditCommand implements Callable<Integer> {

    @Mixin
    LogInput input;

    @Option(names = "--explain", paramLabel = "SEQ", description = "Explain the command of event SEQ: rules and log side by side.")
    Long explainSeq;

    @Option(names = "--json", description = "With --explain: JSON (schema kvledger.audit.explain/1) instead of text.")
    boolean json;

    @Option(names = "--rules", paramLabel = "all|safety", converter = RulesConverter.class,
            description = "Which findings to report: all (the default, the same as no --rules) or safety (only the"
                    + " safety class; exit 1 only for one of those). Malformed input is exit 2 under both.")
    AuditRules rules = AuditRules.ALL;

    /** {@code --rules VALUE}: a value other than all or safety is a usage error (exit 2) that names it. */
    static final class RulesConverter implements CommandLine.ITypeConverter<AuditRules> {
        @Override
        public AuditRules convert(String value) {
            try {
                return AuditRules.of(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = Cli.stdoutWriter();
        try {
            // The audit's thread decides and judges every command besides folding it, so it is the slower of the two:
            // its parse thread hashes the prompts (a third of that thread's work under C1) and the audit only takes the
            // hashes. A replay's fold keeps up with its parse, so there the parse thread would become the slower one
            // (measured 1.13x replay's wall time, docs/performance.md): the other tools prepare nothing.
            return input.scan("audit", LogScan.Preparation.HASH_PROMPTS,
                    scan -> explainSeq == null ? audit(scan, rules, out) : explain(scan, out));
        } finally {
            out.flush();
        }
    }

    /** Violations are printed as they are found, so those before a malformed line are not lost. */
    private static int audit(LogScan scan, AuditRules rules, PrintWriter out) throws IOException, MalformedLogException {
        Auditor auditor = new Auditor(scan.base(), null, rules);
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
                judged[0] = judgement.kept(); // its state before is rebuilt now, while the audit can
            }
        }, rules);
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
