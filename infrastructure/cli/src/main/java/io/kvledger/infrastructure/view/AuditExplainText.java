package io.kvledger.infrastructure.view;

import io.kvledger.application.audit.JudgementView;
import io.kvledger.application.finding.Finding;
import java.io.PrintWriter;

/** {@code kvledger audit LOG --explain SEQ} as text: the findings, the state before, then rules and log side by side. */
public final class AuditExplainText {

    private static final int COLUMN = 72;

    private AuditExplainText() {
    }

    public static void print(JudgementView view, PrintWriter out) {
        out.println("seq " + view.seq() + " belongs to the command of seq " + view.commandSeq() + ": " + view.command());
        if (view.findings().isEmpty()) {
            out.println("findings     none");
        } else {
            out.println("findings");
            for (Finding finding : view.findings()) {
                out.println("  (" + finding.ruleClass().label() + ") " + finding.line()); // its class, contract 9.2
            }
        }
        JudgementView.RequestBefore r = view.request();
        if (r != null && r.groups() != null) {
            // A grouped request: its own figures, then each group's cursor, storable chunks and table (contract 7.9).
            out.println("before       request " + r.requestId() + " " + r.status() + ", c=" + r.computed() + ", n=" + r.numTokens()
                    + ", O=" + r.tokenBound() + ", jobs " + r.jobIds() + ", match " + (r.pendingMatch() == null ? "none" : r.pendingMatch()));
            for (JudgementView.GroupBefore g : r.groups()) {
                out.println("             group " + g.group() + ": s=" + g.cursor() + ", S=" + g.storableChunks() + ", table "
                        + g.blockTable());
            }
        } else if (r != null) {
            out.println("before       request " + r.requestId() + " " + r.status() + ", c=" + r.computed() + ", n=" + r.numTokens()
                    + ", s=" + r.cursor() + ", O=" + r.tokenBound() + ", S=" + r.storableChunks());
            out.println("             table " + r.blockTable() + ", jobs " + r.jobIds() + ", match "
                    + (r.pendingMatch() == null ? "none" : r.pendingMatch()));
        }
        JudgementView.TierBefore t = view.tier();
        if (t != null) {
            out.println((r == null ? "before       " : "             ") + "tier capacity " + t.capacity() + ", held " + t.held()
                    + " (ready " + t.ready() + ", writing " + t.writing() + "), pinned " + t.pinned() + "; next job id "
                    + t.nextJobId() + ", stale below " + t.staleBelowJobId());
        }
        out.println();
        out.printf("%7s    %-" + COLUMN + "s  %s%n", "SEQ", "THE RULES DERIVE", "THE LOG SHOWS");
        for (JudgementView.Row row : view.rows()) {
            String mark = row.same() ? " " : ">";
            out.printf("%s%6s %s  %-" + COLUMN + "s  %s%n", mark, row.seq() == null ? "-" : row.seq(), row.same() ? "=" : "x",
                    row.derived() == null ? "(nothing)" : row.derived(), row.logged() == null ? "(nothing)" : row.logged());
        }
        out.println();
        out.println("verdict      " + view.verdict());
    }
}
