package io.kvledger.infrastructure.view;

import io.kvledger.application.explain.JobGroup;
import io.kvledger.application.explain.LoadExplanation;
import io.kvledger.application.explain.StoreExplanation;
import io.kvledger.application.explain.StoreExplanation.Slice;
import java.io.PrintWriter;
import java.util.List;

/**
 * The parts of {@code kvledger explain}'s text that a grouped job has (contract 7.4, 7.6): what it holds of
 * each group, each group's cursor, storable chunks or load destination and table (null entries as
 * {@code null}), and what each group's rules give.
 */
final class GroupedExplainText {

    private GroupedExplainText() {
    }

    /** {@code holds} per group: the job's chunks, keys and blocks of each. */
    static void holds(List<JobGroup> groups, String blocks, PrintWriter out) {
        for (JobGroup group : groups) {
            out.println((group.group() == 0 ? "holds        " : "             ") + "group " + group.group() + "  "
                    + slice(group.job(), blocks));
        }
    }

    /** A store's groups: each one's figures and the offered chunks its tier lacked. */
    static void store(StoreExplanation x, PrintWriter out) {
        for (JobGroup group : x.groups()) {
            out.println(header(group));
            int cursor = group.cursor();
            int storable = group.storable();
            out.println("  storable  S=" + storable + ", cursor s=" + cursor + (cursor < storable
                    ? ": chunks " + cursor + ".." + (storable - 1) + " are offered" : ": nothing is offered (s >= S)"));
            out.println("  table     " + table(group.table()));
            out.println("  lacking   " + slice(group.expected(), "source blocks"));
        }
    }

    /** A load's groups: each one's hit chunks and the table positions they are read into. */
    static void load(LoadExplanation x, PrintWriter out) {
        for (JobGroup group : x.groups()) {
            out.println(header(group));
            out.println("  hit       chunks " + group.expected().chunkIndices() + ", cursor s=" + group.cursor());
            out.println("  table     " + table(group.table()));
            out.println("  writes    table[" + group.firstBlock() + ".." + group.endBlock() + ") = "
                    + group.expected().blockIds());
        }
    }

    /** The rule a grouped job follows, group by group. */
    static String rule(List<JobGroup> groups, String what, String into) {
        StringBuilder rule = new StringBuilder(what + " of every group,");
        for (JobGroup group : groups) {
            rule.append(group.group() == 0 ? " " : "; ").append("group ").append(group.group()).append(' ')
                    .append(group.expected().chunkIndices()).append(' ').append(into).append(' ')
                    .append(group.expected().blockIds());
        }
        return rule.toString();
    }

    /** {@code group 1   SLIDING_WINDOW B=16 C=16 w=128}. */
    private static String header(JobGroup group) {
        return "group " + group.group() + "      " + group.kind() + " B=" + group.blockSize() + " C=" + group.chunkTokens()
                + (group.slidingWindow() == null ? "" : " w=" + group.slidingWindow()) + (group.eagle() ? " eagle" : "");
    }

    private static String table(List<Integer> table) {
        long nulls = table.stream().filter(block -> block == null).count();
        return table.size() + " blocks " + Compact.list(table) + (nulls == 0 ? "" : " (" + nulls + " null)");
    }

    private static String slice(Slice slice, String blocks) {
        return "chunks " + slice.chunkIndices() + "  keys " + Compact.list(Compact.keys(slice.keys())) + "  " + blocks
                + " " + slice.blockIds();
    }
}
