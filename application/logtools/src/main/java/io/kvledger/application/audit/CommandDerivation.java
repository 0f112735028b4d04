package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The rule that makes the audit complete: each command is rebuilt from its own event, put to the domain's
 * own {@link Decider#decide} on the state folded so far, and the events the rules derive are compared
 * with the command's events in the log ({@link Differences} names the first difference). A command is
 * judged when the next one starts, so its findings come one command late, each at its own seq.
 *
 * <p>The fold goes on from the log's state, so the next command is judged from what the log's producer
 * had, and one wrong decision is reported once, not again at every command after it. Where the log
 * merely leaves out an event the rules require that changes no job (a {@code ChunksStored}, a failed
 * load's {@code ChunksEvicted}, a {@code BlocksReleased}), the fold goes on from the derived state
 * instead, as the producer's own state would be: otherwise a later lookup or load would be judged
 * against chunks the producer knew were ready. Offered chunks a store left out are remembered, and a later
 * store of them is judged from the producer's cursor ({@link HeldBackChunks}): one policy difference is not
 * reported again as a safety one.
 *
 * <p>The command is decided from the state before its own event, read before that event is folded; a refusal's
 * case is read there too. Everything else a judgement reads of an older state (the states before the command's
 * events, for the case of a difference; the state the omission repair goes on from; {@code --explain}'s state
 * before the command) is rebuilt by the {@link Lookback} only when a judgement needs it.
 */
final class CommandDerivation implements AuditRule {

    private final Consumer<CommandJudgement> listener;
    private final Lookback lookback;
    private final List<LoggedEvent> logged = new ArrayList<>();
    private final HeldBackChunks heldBack = new HeldBackChunks();
    private LoggedEvent heldFlush;
    /** The position of the event being folded, from {@link #prepared} to {@link #checkFolded}. */
    private long stepPosition;
    /** Whether the fold had a state before the event being folded. */
    private boolean stepHadState;
    /** Whether {@link #prepared} opened the command of the event being folded. */
    private boolean openedAtPrepare;
    /** The position of the current command's own event, and whether the fold had a state before it. */
    private long openPosition;
    private boolean hadState;
    private EngineCommand command;
    private Decision decision;
    /** A refused command's case, read from the state before it. */
    private Differences.Found refusal;
    private String tokenMismatch;
    private boolean configured;

    /** A derivation of a log that begins after {@code base} ({@code null}: from its first event). */
    CommandDerivation(EngineState base, Consumer<CommandJudgement> listener) {
        this.listener = listener;
        this.lookback = new Lookback(base);
    }

    /**
     * Called before {@code logEvent} is folded: when it starts a command, the current one is judged.
     *
     * @param current the log's fold's state now, before {@code logEvent}
     * @return the state the fold goes on from, or {@code null} to keep the log's
     */
    EngineState beforeFold(EngineEvent logEvent, Findings findings, EngineState current) {
        if (logEvent == null || logEvent instanceof FlushRequired) {
            return null;
        }
        if (logEvent instanceof EngineConfigured && configured) {
            return null;
        }
        boolean opens = CommandWindow.opensCommand(logEvent);
        if (heldFlush != null && !(opens && logEvent instanceof BlocksAllocated && !currentWants(heldFlush))) {
            logged.add(heldFlush); // an answer of the current command, not an allocation's flush
            heldFlush = null;
        }
        if (!opens) {
            return null;
        }
        EngineState goOnFrom = close(findings);
        if (goOnFrom != null) {
            lookback.restart(goOnFrom);
        } else if (heldFlush == null) {
            lookback.moveUpIfDue(current); // no line of the next command is folded yet
        }
        return goOnFrom;
    }

    /** Whether the current command's derived events have this very flush next (a reset's or a preemption's). */
    private boolean currentWants(LoggedEvent flush) {
        if (logged.isEmpty() || !(decision instanceof Decision.Accepted accepted) || logged.size() >= accepted.events().size()) {
            return false;
        }
        return Differences.same(accepted.events().get(logged.size()), flush.event());
    }

    /**
     * Called for every event before it is folded ({@code step} prepared, its {@code before} the current state): a
     * command is decided here, from the state before its own event, and a refusal's case read.
     */
    void prepared(FoldStep step) {
        stepPosition = lookback.position();
        stepHadState = step.before() != null;
        EngineEvent event = step.event();
        openedAtPrepare = stepHadState && event != null && !(event instanceof EngineConfigured)
                && !(event instanceof FlushRequired) && CommandWindow.opensCommand(event);
        if (openedAtPrepare) {
            open(event, step.before(), stepPosition);
        }
    }

    /** Called once {@code prepared} is folded: the look back keeps the event the fold folded. */
    void completed(FoldStep prepared) {
        if (LogFold.folds(prepared)) {
            lookback.folded(prepared.event());
        }
    }

    /** Nothing before the fold but what {@link #prepared} read. */
    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
    }

    /**
     * Takes the folded event into the current command, after the other rules (whether one already reported it
     * is kept with it): the command is judged at its end, and what that needs of the states before its events
     * the look back rebuilds then.
     */
    @Override
    public void checkFolded(FoldStep step, CommandWindow window, Findings findings) {
        EngineEvent event = step.event();
        if (event == null) {
            return;
        }
        if (event instanceof EngineConfigured) {
            if (configured) {
                findings.add(AuditCode.EVENT_ORDER, null, "a second EngineConfigured; the configuration is the first "
                        + "event only, so the fold goes on with the first one");
            }
            configured = true;
            return;
        }
        LoggedEvent line = new LoggedEvent(step.seq(), event, step.logEvent(), findings.any(), stepPosition, lookback);
        if (event instanceof FlushRequired) {
            if (heldFlush != null) {
                logged.add(heldFlush);
            }
            heldFlush = line; // whose it is shows at the next event: a BlocksAllocated's, or the command's
            return;
        }
        if (CommandWindow.opensCommand(event)) {
            if (!openedAtPrepare) {
                open(event, null, stepPosition); // no state before it: nothing to decide from
            }
            if (heldFlush != null) {
                logged.add(heldFlush);
                heldFlush = null;
            }
        }
        logged.add(line);
    }

    /** Judges the last command; call once after the last event. */
    void finish(Findings findings) {
        if (heldFlush != null) {
            logged.add(heldFlush);
            heldFlush = null;
        }
        close(findings);
    }

    /**
     * Rebuilds the command of its own event and lets the domain decide it on the state before it ({@code null}:
     * none), read now, before the event is folded; a refusal's case is read from the same state.
     */
    private void open(EngineEvent opener, EngineState stateBefore, long position) {
        openPosition = position;
        hadState = stateBefore != null;
        command = null;
        decision = null;
        refusal = null;
        tokenMismatch = null;
        if (opener instanceof CommandRejected) {
            return;
        }
        try {
            command = CommandRebuild.of(opener, stateBefore);
        } catch (CommandRebuild.TokenCountMismatch mismatch) {
            tokenMismatch = mismatch.getMessage();
            return;
        }
        if (command != null) {
            decision = Decider.decide(stateBefore, command);
            if (decision instanceof Decision.Rejected rejected) {
                refusal = Refusals.classify(stateBefore, command, rejected, opener);
            }
        }
    }

    /** Judges the current command and forgets it (a command the next one starts is over). */
    private EngineState close(Findings findings) {
        EngineState goOnFrom = judge(findings);
        logged.clear();
        command = null;
        decision = null;
        refusal = null;
        tokenMismatch = null;
        return goOnFrom;
    }

    private EngineState judge(Findings findings) {
        if (logged.isEmpty()) {
            return null;
        }
        // Only a listener keeps the command's events past this call; the audit alone reads them in place.
        List<LoggedEvent> events = listener == null ? logged : List.copyOf(logged);
        LoggedEvent openerLine = openerLine(events);
        if (openerLine == null || !hadState) {
            report(stateAt(openerLine == null ? events.get(0) : openerLine), null, null, List.of(), events, -1, null);
            return null;
        }
        Supplier<EngineState> before = stateAt(openerLine);
        if (tokenMismatch != null) {
            Finding finding = add(findings, openerLine, AuditCode.STATE_MISMATCH, tokenMismatch);
            report(before, null, null, List.of(), events, events.indexOf(openerLine), finding);
            return null;
        }
        if (decision == null) {
            report(before, command, null, List.of(), events, -1, null);
            return null;
        }
        if (decision instanceof Decision.Rejected) {
            Differences.Found found = refusal;
            LoggedEvent at = found.code() == AuditCode.LOAD_NOT_READY || found.code() == AuditCode.LOAD_MISMATCH
                    ? loadOf(events, openerLine) : openerLine;
            Finding finding = add(findings, at, found.code(), MixedCases.withCase(found.code(), found.reason(), at,
                    openerLine.event()));
            report(before, command, decision, List.of(), events, events.indexOf(at), finding);
            return null;
        }
        Decision.Accepted accepted = (Decision.Accepted) decision;
        Differences.Found found = Differences.first(accepted.events(), events, openerLine.event());
        Supplier<EngineState> judgedFrom = before;
        if (found != null && openerLine.event() instanceof RequestEvent opener && heldBack.holdsBack(opener.requestId())) {
            // The producer may be storing chunks it held back at an earlier offer: decide again from its cursor.
            EngineState rewound = heldBack.rewound(lookback.at(openPosition), opener.requestId());
            if (rewound != null && Decider.decide(rewound, command) instanceof Decision.Accepted again) {
                Differences.Found foundAgain = Differences.first(again.events(), events, openerLine.event());
                if (foundAgain == null || foundAgain.code() == AuditCode.STORE_MISSING) {
                    accepted = again;
                    found = foundAgain;
                    judgedFrom = () -> rewound;
                }
            }
        }
        if (command instanceof io.kvledger.domain.command.ResetCache) {
            heldBack.clear();
        } else if (found != null && found.code() == AuditCode.STORE_MISSING) {
            heldBack.remember(accepted.events(), events);
        }
        heldBack.forgetStored(events);
        Finding finding = null;
        if (found != null) {
            LoggedEvent at = found.index() < events.size() ? events.get(found.index()) : events.get(events.size() - 1);
            finding = add(findings, at, found.code(), MixedCases.withCase(found.code(), found.reason(), at, openerLine.event()));
        }
        report(judgedFrom, command, accepted, accepted.events(), events,
                found == null ? -1 : found.index(), finding);
        return found != null && found.omissionOnly() ? folded(judgedFrom.get(), accepted.events()) : null;
    }

    /** The state before {@code line}, rebuilt by the look back when asked for (a copy of its own each time). */
    private Supplier<EngineState> stateAt(LoggedEvent line) {
        return new StateAt(lookback, line == null ? openPosition : line.position());
    }

    /**
     * {@link #stateAt}'s answer, a class rather than a lambda: one is made for every command, and C1 makes a
     * capturing lambda through a JNI call ({@code Unsafe.allocateInstance}), 3 % of an audit.
     */
    private record StateAt(Lookback lookback, long position) implements Supplier<EngineState> {
        @Override
        public EngineState get() {
            return lookback.at(position);
        }
    }

    /** The state the rules' events make from {@code from} (deciding folded nothing). */
    private static EngineState folded(EngineState from, List<EngineEvent> events) {
        EngineState state = from;
        for (EngineEvent event : events) {
            state = EngineFold.evolve(state, event);
        }
        return state;
    }

    /** Adds the finding unless a rule that reads events one by one already reported that event. */
    private static Finding add(Findings findings, LoggedEvent at, AuditCode code, String reason) {
        if (at.flagged() && !Differences.NEVER_SUPPRESSED.contains(code)) {
            return null;
        }
        String requestId = at.event() instanceof RequestEvent e ? e.requestId() : null;
        findings.add(at.seq(), code, requestId, reason);
        return new Finding(at.seq(), code, requestId, reason);
    }

    /** Tells the listener, if there is one, how the command was judged (the judgement is made only for it). */
    private void report(Supplier<EngineState> stateBefore, EngineCommand judged, Decision decided,
                        List<EngineEvent> derived, List<LoggedEvent> events, int differsAt, Finding finding) {
        if (listener != null) {
            listener.accept(new CommandJudgement(stateBefore, judged, decided, derived, events, differsAt, finding));
        }
    }

    private static LoggedEvent openerLine(List<LoggedEvent> events) {
        for (LoggedEvent line : events) {
            if (CommandWindow.opensCommand(line.event())) {
                return line;
            }
        }
        return null;
    }

    /** A refused load is reported at its {@code LoadJobScheduled} (where the load rules look) when the log has one. */
    private static LoggedEvent loadOf(List<LoggedEvent> events, LoggedEvent otherwise) {
        for (LoggedEvent line : events) {
            if (line.event() instanceof io.kvledger.domain.event.LoadJobScheduled) {
                return line;
            }
        }
        return otherwise;
    }

    static boolean isOmissible(EngineEvent event) {
        return event instanceof ChunksStored || event instanceof ChunksEvicted || event instanceof BlocksReleased;
    }
}
