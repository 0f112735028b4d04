package io.kvledger.infrastructure.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a long log on stderr: position, events per second and an ETA from the file size. On a
 * terminal one line is rewritten in place; otherwise (when forced with --progress) a line is printed
 * per update, so a log file of the run stays readable.
 */
final class Progress {

    private static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final int CHECK_EVERY_EVENTS = 1024;

    private final PrintStream err;
    private final String tool;
    private final long totalBytes;
    private final boolean inPlace;
    private final long start = System.nanoTime();
    private long lastPrint = start;
    private long lastEvents;
    private long lastBytes;
    private int lastWidth;

    private Progress(PrintStream err, String tool, long totalBytes, boolean inPlace) {
        this.err = err;
        this.tool = tool;
        this.totalBytes = totalBytes;
        this.inPlace = inPlace;
    }

    /** {@code null} when progress is off: neither a terminal nor asked for. */
    static Progress of(boolean forced, PrintStream err, String tool, long totalBytes) {
        boolean terminal = System.console() != null;
        return forced || terminal ? new Progress(err, tool, totalBytes, terminal) : null;
    }

    void update(long events, long bytes, long seq) {
        if (events % CHECK_EVERY_EVENTS != 0) {
            return;
        }
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
                    megabytes(bytes), megabytes(totalBytes)));
        } else {
            text.append(megabytes(bytes));
        }
        text.append(String.format(Locale.ROOT, "  seq %d  %,.0f events/s", seq, rate));
        if (done) {
            text.append(String.format(Locale.ROOT, "  %,d events in %.1f s", events, seconds));
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

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }
}
