package io.kvledger.application.audit;

import io.kvledger.application.finding.RuleClass;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/**
 * The two cases of {@code STORE_BEYOND_BOUND} (contract 9.2). A chunk past {@code min(c, n)} (or an
 * {@code eagle} chunk held back with {@code O = min(c, n)}) stores KV that was never computed: safety.
 * A chunk within it that only a cap of the bound cuts off is a decision of policy. The caps are named
 * one by one ({@link #capsBelow}): the config's {@code maxOffloadTokens}, the request's own (contract
 * 9.1) and {@code offloadPromptOnly}.
 */
final class BoundCases {

    private BoundCases() {
    }

    /** {@code min(c, n)}: how far the request's KV was computed; 0 for a request the state does not hold. */
    static int computedBound(RequestState request) {
        return request == null ? 0 : Math.min(request.computed(), request.numTokens());
    }

    /** The caps of the token bound below {@code computedBound}, each named with its value. */
    static List<String> capsBelow(EngineConfig config, RequestState request, int computedBound) {
        List<String> caps = new ArrayList<>(3);
        if (request == null) {
            return caps;
        }
        if (config.maxOffloadTokens() != null && config.maxOffloadTokens() < computedBound) {
            caps.add("maxOffloadTokens=" + config.maxOffloadTokens() + " of the config");
        }
        if (request.maxOffloadTokens() != null && request.maxOffloadTokens() < computedBound) {
            caps.add("the request's maxOffloadTokens=" + request.maxOffloadTokens());
        }
        if (config.offloadPromptOnly() && request.promptLength() < computedBound) {
            caps.add("offloadPromptOnly with promptLength=" + request.promptLength());
        }
        return caps;
    }

    /**
     * The reason with its case: safety when {@code neverComputed} names chunks, else policy.
     *
     * @param neverComputed the stored chunks past the computed KV (with groups, named with their group)
     */
    static String withCase(String reason, List<String> neverComputed, int computedBound, List<String> caps) {
        if (!neverComputed.isEmpty()) {
            return AuditCode.withCase(reason, RuleClass.SAFETY, String.join(", ", neverComputed)
                    + " reach past min(c, n)=" + computedBound + ", KV that was never computed");
        }
        return policy(reason, computedBound, caps);
    }

    /** The grouped form: a chunk at or past the bound with {@code O = min(c, n)}, the eagle hold-back included. */
    static String withGroupedCase(String reason, List<String> pastComputed, int computedBound, List<String> caps) {
        if (!pastComputed.isEmpty()) {
            return AuditCode.withCase(reason, RuleClass.SAFETY, String.join(", ", pastComputed)
                    + " are at or past the bound with O = min(c, n) = " + computedBound
                    + ": KV that was never computed, or a chunk an eagle group holds back");
        }
        return policy(reason, computedBound, caps);
    }

    private static String policy(String reason, int computedBound, List<String> caps) {
        return AuditCode.withCase(reason, RuleClass.POLICY, "within min(c, n)=" + computedBound
                + ", past only " + (caps.isEmpty() ? "a cap of the bound" : String.join(" and ", caps)));
    }
}
