package io.kvledger.domain.decision;

import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/** Registration, preemption, abort and finish. */
final class LifecycleDecisions {

    private LifecycleDecisions() {
    }

    static void register(Emitter emitter, RegisterRequest command) {
        if (command.requestId() == null) {
            throw Rejection.invalidArgument("requestId is missing");
        }
        requireNew(emitter.state(), command.requestId());
        if (command.promptTokens().isEmpty()) {
            throw Rejection.invalidArgument("promptTokens must not be empty");
        }
        Arguments.requireNonNegative("promptTokens", command.promptTokens());
        Arguments.requireNonNegative("maxOffloadTokens", command.maxOffloadTokens());
        Arguments.requireNonNegative("maxLoadTokens", command.maxLoadTokens());
        emitter.emit(new RequestRegistered(command.requestId(), command.promptTokens().size(), command.promptTokens(),
                command.maxOffloadTokens(), command.maxLoadTokens(), command.skipReadingPrefixCache()));
    }

    static void requireNew(EngineState state, String requestId) {
        if (state.isKnown(requestId)) {
            throw Rejection.of(RejectionCode.DUPLICATE_REQUEST, "request " + requestId + " is already registered");
        }
    }

    /** {@code c} becomes 0, in-flight stores are flushed, and the whole table is released. */
    static void preempt(Emitter emitter, RequestState request) {
        if (request.status() != RequestStatus.RUNNING) {
            throw Rejection.invalidState("PreemptRequest needs a RUNNING request; " + request.requestId() + " is " + request.status());
        }
        // Its blocks as the preemption finds them (non-null entries, every group): the release names them all.
        PerGroup<Integer> held = ReleaseDecision.heldBlocks(request, java.util.Set.of());
        emitter.emit(new RequestPreempted(request.requestId()));
        FlushRequired flush = Flushes.ofJobs(emitter.state(), request.jobIds());
        if (flush != null) {
            emitter.emit(flush);
        }
        if (!held.isEmpty()) {
            emitter.emit(new BlocksReleased(request.requestId(), held));
        }
    }

    static void abort(Emitter emitter, RequestState request) {
        emitter.emit(new RequestAborted(request.requestId()));
        offerThenRelease(emitter, ended(request, RequestStatus.ABORTED));
    }

    static void finish(Emitter emitter, RequestState request, FinishRequest command) {
        if (command.reason() == null) {
            throw Rejection.invalidArgument("reason must be STOPPED or LENGTH");
        }
        if (request.status() == RequestStatus.LOADING) {
            throw Rejection.invalidState("FinishRequest is refused while request " + request.requestId() + " is LOADING");
        }
        emitter.emit(new RequestFinished(request.requestId(), command.reason()));
        offerThenRelease(emitter, ended(request, RequestStatus.FINISHED));
    }

    /** The request as its terminal event leaves it: the status, and no unused match. */
    private static RequestState ended(RequestState request, RequestStatus status) {
        return request.withStatus(status).withPendingMatch(null);
    }

    /** The final offer, then the release the policy allows, a store scheduled by the offer counting as in flight. */
    private static void offerThenRelease(Emitter emitter, RequestState ended) {
        boolean stored = StoreDecision.offer(emitter, ended);
        ReleaseDecision.releaseTerminated(emitter, ended, stored);
    }
}
