package io.kvledger.infrastructure.view;

import io.kvledger.infrastructure.view.TimelineRow.Snapshot;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * The text of a request's timeline: one fixed-width line per event, each figure shown as
 * {@code before->after} where the event changed it, so a change stands out when scanning down a column.
 */
public final class TimelineText {

    private final String format;

    private TimelineText(int groups) {
        // A grouped figure is a list, [3, 3]->[4, 4]: its columns are as wide as two lists of G numbers of up to
        // three digits and the arrow, so the columns after them stay aligned (contract 7.9's per-group figures).
        int perGroup = groups <= 1 ? 7 : 2 * (5 * groups) + 2;
        this.format = "%7s  %-20s  %-25s  %-11s  %-11s  %-" + perGroup + "s  %-" + perGroup + "s  %-14s  %s";
    }

    /** The text of a timeline whose request holds {@code groups} tables (1 without groups). */
    public static TimelineText of(int groups) {
        return new TimelineText(groups);
    }

    /** The columns of the first row's request: one per group, or 1 without groups. */
    public static TimelineText of(TimelineRow first) {
        Snapshot known = first.after() != null ? first.after() : first.before();
        return of(known == null || known.cursor() == null ? 1 : known.cursor().groupCount());
    }

    public void header(String requestId, PrintWriter out) {
        out.println("timeline of request " + requestId + " (before->after where an event changed it)");
        out.println(String.format(Locale.ROOT, format, "SEQ", "EVENT", "STATUS", "c", "n", "s", "BLOCKS", "JOBS", "FIELDS")
                .stripTrailing());
    }

    public void row(TimelineRow row, PrintWriter out) {
        Snapshot a = row.before();
        Snapshot b = row.after();
        out.println(String.format(Locale.ROOT, format, row.seq(), row.type(), status(a, b),
                figure(a, b, Snapshot::computed), figure(a, b, Snapshot::numTokens), figure(a, b, Snapshot::cursor),
                figure(a, b, Snapshot::tableSize), figure(a, b, Snapshot::jobIds), row.fields()).stripTrailing());
    }

    /** The status change, and {@code +retired} when the request settles at this event. */
    private static String status(Snapshot before, Snapshot after) {
        String was = before == null ? null : before.status().name();
        String is = after == null ? null : after.status().name();
        boolean retires = after != null && after.retired() && (before == null || !before.retired());
        return change(was, is) + (retires ? " +retired" : "");
    }

    private static String figure(Snapshot before, Snapshot after, Function<Snapshot, Object> field) {
        Object was = before == null ? null : field.apply(before);
        Object is = after == null ? null : field.apply(after);
        return change(was == null ? null : text(was), is == null ? null : text(is));
    }

    /** A per-group figure as its value for one group and as {@code [3, 3]} for several (contract 7.9). */
    private static String text(Object figure) {
        return figure instanceof PerGroupFigure<?> perGroup
                ? String.valueOf(perGroup.groupCount() == 1 ? perGroup.first() : perGroup.values()) : String.valueOf(figure);
    }

    /**
     * {@code x} when unchanged, {@code x->y} when changed. A value that appears (registration) is shown
     * alone; one that goes (a retired request keeps no figures) becomes {@code -}.
     */
    private static String change(String was, String is) {
        if (Objects.equals(was, is) || was == null) {
            return is == null ? "-" : is;
        }
        return was + "->" + (is == null ? "-" : is);
    }
}
