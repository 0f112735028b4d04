package io.kvledger.simulation.chain;

import java.util.List;
import java.util.function.Consumer;

/** A named invariant of the stateful properties; a breach names it, so a replay can tell it is the same one. */
record ChainInvariant(String label, Consumer<LedgerModel> check) {

    static final String EXCEPTION = "no exception";

    /** The invariants checked after every action. */
    static final List<ChainInvariant> ALL = List.of(
            new ChainInvariant("replay equals live", LedgerModel::replayEqualsLive),
            new ChainInvariant("rejected commands change no state", LedgerModel::rejectedCommandsChangeNothing),
            new ChainInvariant("store slices, token bound, table, job ids", LedgerModel::logRulesHold),
            new ChainInvariant("tier within capacity", LedgerModel::tierWithinCapacity));

    void verify(LedgerModel model) {
        try {
            check.accept(model);
        } catch (AssertionError e) {
            throw new Broken(label, e);
        }
    }

    /** The label of the invariant a failure broke ({@link #EXCEPTION} for anything else thrown). */
    static String labelOf(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof Broken broken) {
                return broken.label;
            }
        }
        return EXCEPTION;
    }

    /** An invariant's breach. */
    static final class Broken extends AssertionError {
        final String label;

        Broken(String label, AssertionError cause) {
            super(label + ": " + cause.getMessage(), cause);
            this.label = label;
        }
    }
}
