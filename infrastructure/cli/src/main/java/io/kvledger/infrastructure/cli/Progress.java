package io.kvledger.infrastructure.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a long command on stderr: position, events per second and an ETA from the total (the
 * input's size, or a count of work such as simulated requests). On a terminal one line is rewritten in
 * place; otherwise (when forced with --progress) a line is printed per update, so a log file of the run
 * stays readable. Every long command has it: run, replay, audit, explain, simulate, shrink.
 */
final class Progress {

    private static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final int CHECK_EVERY_EVENTS = 1024;

    private final PrintStream err;
    private final String tool;
    private final long totalBytes;
    /** The unit of the amount done: {@code null} for bytes (shown in MB), else a count's name. */
    private final String unit;
    private final boolean inPlace;
    private final long start = System.nanoTime();
    private long lastPrint = start;
    private long lastEvents;
    private long lastCheck;
    private long lastBytes;
    private int lastWidth;

    private Progress(PrintStream err, String tool, long totalBytes, String unit, boolean inPlace) {
        this.err = err;
        this.tool = tool;
        this.totalBytes = totalBytes;
        this.unit = unit;
        this.inPlace = inPlace;
    }

    /** Progress through an input of {@code totalBytes}; {@code null} when off: neither a terminal nor asked for. */
    static Progress of(boolean forced, PrintStream err, String tool, long totalBytes) {
        return of(forced, err, tool, totalBytes, null);
    }

    /** Progress through {@code total} units of work (0 when unknown), counted in {@code unit}. */
    static Progress of(boolean forced, PrintStream err, String tool, long total, String unit) {
        boolean terminal = System.console() != null;
        return forced || terminal ? new Progress(err, tool, total, unit, terminal) : null;
    }

    /** @param bytes the amount done, in bytes or in the unit of work */
    void update(long events, long bytes, long seq) {
        if (events - lastCheck < (unit == null ? CHECK_EVERY_EVENTS : 1)) {
            return;
        }
        lastCheck = events;
        long now = System.nanoTime();
        if (now - lastPrint >= INTERVAL_NANOS) {
            print(line(events - lastEvents, bytes, bytes - lastBytes, seq, now - lastPrint, false), false);
            lastPrint = now;
            lastEvents = events;
            lastBytes = bytes;
        }
    }

    /** The last line gives the whole run's figures. */
    void finish(long events, long bytes, long seq) {
        print(line(events, bytes, bytes, seq, System.nanoTime() - start, true), true);
    }

    /**
     * Rates come from the last interval, not from the start, so the warm-up of the first seconds does
     * not linger in the ETA.
     */
    private String line(long events, long bytes, long bytesInInterval, long seq, long intervalNanos, boolean done) {
        double seconds = Math.max(intervalNanos / 1e9, 1e-9);
        double rate = events / seconds;
        StringBuilder text = new StringBuilder(tool).append(": ");
        if (totalBytes > 0) {
            text.append(String.format(Locale.ROOT, "%3d%% %s / %s", Math.min(100, bytes * 100 / totalBytes),
                    amount(bytes), amount(totalBytes)));
        } else {
            text.append(amount(bytes));
        }
        // A count of work with no log position (shrink's oracle runs) is its own rate.
        String counted = seq == 0 && unit != null ? unit : "events";
        if (seq > 0 || unit == null) {
            text.append(String.format(Locale.ROOT, "  seq %d", seq));
        }
        text.append(String.format(Locale.ROOT, "  %,.0f %s/s", rate, counted));
        if (done) {
            text.append(String.format(Locale.ROOT, "  %,d %s in %.1f s", events, counted, seconds));
        } else if (totalBytes > 0 && bytesInInterval > 0) {
            double remaining = seconds * (totalBytes - bytes) / bytesInInterval;
            text.append("  ETA ").append(duration(remaining));
        }
        return text.toString();
    }

    private void print(String text, boolean last) {
        if (inPlace) {
            String padding = " ".repeat(Math.max(0, lastWidth - text.length()));
            err.print("\r" + text + padding + (last ? "\n" : ""));
            lastWidth = text.length();
        } else {
            err.println(text);
        }
        err.flush();
    }

    private String amount(long done) {
        return unit == null ? megabytes(done) : String.format(Locale.ROOT, "%,d %s", done, unit);
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }
}
