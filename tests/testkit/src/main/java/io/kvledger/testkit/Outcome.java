package io.kvledger.testkit;

import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import java.util.List;
import java.util.function.Consumer;

/**
 * The then part: what the when step produced, checked whole or by kind. Every check compares exactly
 * (these events, in this order, and no more) and fails with expected and actual side by side. Expected
 * items are events, compared whole, or {@link EventMatcher}s (a rejection, whose message is prose).
 */
public final class Outcome {

    private final StepResult result;

    Outcome(StepResult result) {
        this.result = result;
    }

    /** Exactly these events of the step, in order. */
    public Outcome thenEvents(Object... expected) {
        return thenEvents(List.of(expected));
    }

    /** Exactly these events of the step, in order. */
    public Outcome thenEvents(List<?> expected) {
        return check("the step's events", expected, result.events());
    }

    /** Exactly these store and load jobs, in the order scheduled. */
    public Outcome thenJobs(EngineEvent... expected) {
        List<EngineEvent> jobs = result.events().stream()
                .filter(e -> e instanceof StoreJobScheduled || e instanceof LoadJobScheduled).toList();
        return check("the step's jobs", List.of(expected), jobs);
    }

    public Outcome thenStoreJobs(StoreJobScheduled... expected) {
        return check("the step's store jobs", List.of(expected), result.storeJobs());
    }

    public Outcome thenLoadJobs(LoadJobScheduled... expected) {
        return check("the step's load jobs", List.of(expected), result.loadJobs());
    }

    /** Exactly these flushes (none when none is given). */
    public Outcome thenFlushes(FlushRequired... expected) {
        return check("the step's flushes", List.of(expected), result.flushes());
    }

    /** Exactly these releases (none when none is given). */
    public Outcome thenReleases(BlocksReleased... expected) {
        return check("the step's releases", List.of(expected), result.releases());
    }

    /** Exactly these rejections, each a {@link CommandRejected} or an {@link EventMatcher} (none when none is given). */
    public Outcome thenRejections(Object... expected) {
        return check("the step's rejections", List.of(expected), result.rejections());
    }

    /** Any further check of the state after the step. */
    public Outcome thenState(Consumer<EngineState> check) {
        check.accept(result.state());
        return this;
    }

    public List<EngineEvent> events() {
        return result.events();
    }

    public EngineState state() {
        return result.state();
    }

    public StepResult result() {
        return result;
    }

    /**
     * The step's events, one a line in order, and its rejections named again at the end: what an assertion
     * on the outcome prints when it fails.
     */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Outcome of a step with ").append(result.events().size()).append(" event")
                .append(result.events().size() == 1 ? "" : "s").append(result.events().isEmpty() ? "" : ":");
        result.events().forEach(event -> text.append("\n  ").append(event));
        List<CommandRejected> rejections = result.rejections();
        text.append(rejections.isEmpty() ? "\nno rejection" : "\n" + rejections.size() + " rejection"
                + (rejections.size() == 1 ? "" : "s") + ":");
        rejections.forEach(rejection -> text.append("\n  line ").append(rejection.line()).append(' ').append(rejection.cmd())
                .append(' ').append(rejection.code()).append(": ").append(rejection.message()));
        return text.toString();
    }

    private Outcome check(String what, List<?> expected, List<? extends EngineEvent> actual) {
        if (!EventDiff.same(expected, actual)) {
            throw new ExpectationFailure(EventDiff.describe(what, expected, actual), expected, actual);
        }
        return this;
    }
}
