package io.kvledger.domain.decision;

import io.kvledger.domain.UnicodeText;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.RequestCommand;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/**
 * {@code decide(state, command) -> events}: a pure function. Guards run in the contract's order of
 * precedence (section 4, Bad input): the request id, whether the request is known, whether it has
 * ended, the command's own fields, the request's state, and last a load's table length.
 */
public final class Decider {

    private Decider() {
    }

    /** The first event of every engine. */
    public static EngineConfigured configure(EngineConfig config) {
        return EngineConfigured.of(config);
    }

    /**
     * The events {@code command} produces on {@code state}, or its refusal. {@code state} is only read: the caller
     * folds the events it keeps.
     */
    public static Decision decide(EngineState state, EngineCommand command) {
        try {
            return decideOrThrow(state, command);
        } catch (Rejection rejection) {
            return rejection.toDecision();
        }
    }

    private static Decision decideOrThrow(EngineState state, EngineCommand command) {
        Emitter emitter = new Emitter(state);
        String addressed;
        if (command instanceof RequestCommand request) {
            addressed = request.requestId();
            // A held request's id was checked when it was registered, so only an id the state does not hold is
            // read char by char (a decode step's commands all name held requests; the look-up is remembered).
            if (addressed != null && state.heldRequest(addressed) == null && !UnicodeText.isWellFormed(addressed)) {
                throw Rejection.invalidArgument(UnicodeText.problem("requestId", addressed));
            }
        } else {
            addressed = command instanceof InvalidCommand invalid && invalid.addressesRequest() ? invalid.requestId() : null;
        }
        if (addressed != null && addressed.isEmpty()) {
            // An empty id names nothing a host could look up (outputs would read "request : ..."): a bad requestId.
            throw Rejection.invalidArgument("requestId must not be empty");
        }
        if (command instanceof RegisterRequest c) {
            LifecycleDecisions.register(emitter, c);
        } else if (command instanceof MatchPrefix c) {
            LookupDecision.match(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof AllocateBlocks c) {
            AllocationDecision.allocate(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof ComputeTokens c) {
            TokenDecisions.compute(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof RejectTokens c) {
            TokenDecisions.reject(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof AppendTokens c) {
            TokenDecisions.append(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof PreemptRequest c) {
            LifecycleDecisions.preempt(emitter, requireLive(state, c.requestId()));
        } else if (command instanceof AbortRequest c) {
            LifecycleDecisions.abort(emitter, requireLive(state, c.requestId()));
        } else if (command instanceof FinishRequest c) {
            LifecycleDecisions.finish(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof FreeWindowBlocks c) {
            WindowFreeDecision.free(emitter, requireLive(state, c.requestId()), c);
        } else if (command instanceof CompleteTransfer c) {
            CompletionDecision.complete(emitter, c);
        } else if (command instanceof ResetCache) {
            ResetDecision.reset(emitter);
        } else if (command instanceof InvalidCommand c) {
            rejectInvalid(state, c);
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
        return emitter.accepted();
    }

    /**
     * The request a command addresses, which must be known and not terminated: rejects it otherwise
     * ({@code UNKNOWN_REQUEST}, {@code REQUEST_TERMINATED}). Unlike {@link EngineState#heldRequest}, it
     * never returns a terminated request.
     */
    static RequestState requireLive(EngineState state, String requestId) {
        if (requestId == null) {
            throw Rejection.invalidArgument("requestId is missing");
        }
        RequestState request = state.heldRequest(requestId);
        RequestStatus status = request != null ? request.status() : state.retired().getOrElse(requestId, null);
        if (status == null) {
            throw Rejection.of(RejectionCode.UNKNOWN_REQUEST, "request " + requestId + " is not registered");
        }
        if (status.isTerminal()) {
            throw Rejection.of(RejectionCode.REQUEST_TERMINATED, "request " + requestId + " is " + status);
        }
        return request;
    }

    /** A command whose fields could not be read still names its request before its bad field. */
    private static void rejectInvalid(EngineState state, InvalidCommand command) {
        if (command.addressesRequest()) {
            if (command.requestId() == null || !UnicodeText.isWellFormed(command.requestId())) {
                throw Rejection.invalidArgument(UnicodeText.escapeLoneSurrogates(command.problem()));
            }
            if ("RegisterRequest".equals(command.name())) {
                LifecycleDecisions.requireNew(state, command.requestId());
            } else {
                requireLive(state, command.requestId());
            }
        }
        throw Rejection.invalidArgument(UnicodeText.escapeLoneSurrogates(command.problem()));
    }
}
