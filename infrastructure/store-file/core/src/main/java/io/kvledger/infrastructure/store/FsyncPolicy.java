package io.kvledger.infrastructure.store;

import java.time.Duration;
import java.util.Objects;

/**
 * When the store forces its appends to the disk. Every append is written to the operating system
 * before it returns, so a killed process loses nothing it acknowledged; forcing is what also survives
 * a power loss or a kernel crash, at the cost of a disk round trip.
 */
public sealed interface FsyncPolicy {

    /** Force after every append: an acknowledged step survives a power loss. */
    FsyncPolicy ALWAYS = new Always();

    /** Never force; the operating system writes back when it likes (a process crash still loses nothing). */
    FsyncPolicy NEVER = new Never();

    /** Force after an append once at least {@code period} has passed since the last force, and on close. */
    static FsyncPolicy interval(Duration period) {
        return new Interval(period);
    }

    /** Whether an append made at {@code nowNanos} must be forced, the last force having been at {@code lastForceNanos}. */
    boolean forceAfterAppend(long lastForceNanos, long nowNanos);

    /** Whether closing the store forces what is not forced yet. */
    boolean forceOnClose();

    /**
     * The command line's spelling: {@code always}, {@code never} or {@code interval:MS}.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    static FsyncPolicy parse(String text) {
        String value = text.strip();
        if (value.equals("always")) {
            return ALWAYS;
        }
        if (value.equals("never")) {
            return NEVER;
        }
        if (value.startsWith("interval:")) {
            try {
                long millis = Long.parseLong(value.substring("interval:".length()));
                if (millis > 0) {
                    return interval(Duration.ofMillis(millis));
                }
            } catch (NumberFormatException e) {
                // reported below with the accepted forms
            }
        }
        throw new IllegalArgumentException("fsync policy must be always, never or interval:MS (MS > 0), was '" + text + "'");
    }

    record Always() implements FsyncPolicy {
        @Override
        public boolean forceAfterAppend(long lastForceNanos, long nowNanos) {
            return true;
        }

        @Override
        public boolean forceOnClose() {
            return false; // nothing is left unforced
        }

        @Override
        public String toString() {
            return "always";
        }
    }

    record Never() implements FsyncPolicy {
        @Override
        public boolean forceAfterAppend(long lastForceNanos, long nowNanos) {
            return false;
        }

        @Override
        public boolean forceOnClose() {
            return false;
        }

        @Override
        public String toString() {
            return "never";
        }
    }

    record Interval(Duration period) implements FsyncPolicy {
        public Interval {
            Objects.requireNonNull(period, "period");
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("fsync interval must be positive, was " + period);
            }
        }

        @Override
        public boolean forceAfterAppend(long lastForceNanos, long nowNanos) {
            return nowNanos - lastForceNanos >= period.toNanos();
        }

        @Override
        public boolean forceOnClose() {
            return true;
        }

        @Override
        public String toString() {
            return "interval:" + period.toMillis();
        }
    }
}
