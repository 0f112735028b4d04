package io.kvledger.domain.decision;

import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/** Computing, rejecting and appending tokens. */
final class TokenDecisions {

    private TokenDecisions() {
    }

    /** {@code c} counts tokens when they are scheduled; the chunks it completes are offered to the tier. */
    static void compute(Emitter emitter, RequestState request, ComputeTokens command) {
        Arguments.requirePositive("tokens", command.tokens());
        int computed = Arguments.addWithoutOverflow("tokens", request.computed(), command.tokens());
        requireRunning(request, "ComputeTokens");
        emitter.emit(new TokensComputed(request.requestId(), computed));
        // Most decode steps complete no chunk: the request with its new c is made only for an offer that can exist.
        if (GroupedOffer.reaches(emitter.state().config(), request, computed)) {
            StoreDecision.offer(emitter, request.withComputed(computed));
        }
    }

    /** Takes back rejected speculative tokens, never below what is known computed or already stored. */
    static void reject(Emitter emitter, RequestState request, RejectTokens command) {
        Arguments.requirePositive("tokens", command.tokens());
        long floor = floor(emitter.state().config(), request);
        long computed = (long) request.computed() - command.tokens();
        if (computed < floor) {
            throw Rejection.invalidArgument("RejectTokens would take c from " + request.computed() + " to " + computed
                    + ", below " + floor + " (max(n - 1, s * C))");
        }
        requireRunning(request, "RejectTokens");
        emitter.emit(new TokensRejected(request.requestId(), (int) computed));
    }

    /**
     * The largest of {@code n - 1}, {@code s_g*C_g}, and {@code (j+1)*B_g + w_g - 1} for every null entry {@code j}
     * of a sliding table (contract section 7.4; with one {@code FULL} group {@code max(n - 1, s*C)}), so no
     * rejection brings a null position back into the window.
     */
    private static long floor(io.kvledger.domain.config.EngineConfig config, RequestState request) {
        long floor = request.numTokens() - 1L;
        for (int g = 0; g < config.groupCount(); g++) {
            floor = Math.max(floor, (long) request.cursor(g) * config.chunkTokens(g));
            io.kvledger.domain.config.KvCacheGroup group = config.group(g);
            if (group.isSliding()) {
                int lastNull = request.table(g).lastIndexOf(null);
                if (lastNull >= 0) {
                    floor = Math.max(floor, (lastNull + 1L) * group.blockSize() + group.slidingWindow() - 1);
                }
            }
        }
        return floor;
    }

    static void append(Emitter emitter, RequestState request, AppendTokens command) {
        if (command.tokens().isEmpty()) {
            throw Rejection.invalidArgument("tokens must not be empty");
        }
        Arguments.requireNonNegative("tokens", command.tokens());
        int numTokens = Arguments.addWithoutOverflow("tokens", request.numTokens(), command.tokens().size());
        emitter.emit(new TokensAppended(request.requestId(), numTokens, command.tokens()));
    }

    private static void requireRunning(RequestState request, String command) {
        if (request.status() != RequestStatus.RUNNING) {
            throw Rejection.invalidState(command + " needs a RUNNING request; " + request.requestId() + " is " + request.status());
        }
    }
}
