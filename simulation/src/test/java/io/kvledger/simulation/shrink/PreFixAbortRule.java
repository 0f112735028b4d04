package io.kvledger.simulation.shrink;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * vLLM's abort rule before #49146 and #49285 (reference section 2.1), for tests only: at an abort the
 * store runs up to {@code floor(n/C)} chunks (the bound {@code n}, not {@code c}) with no clamp by the
 * block table. When the table is shorter than the keys, the slices disagree and, like vLLM's
 * {@code assert len(keys) == len(ids)}, the decision throws; otherwise it stores never-computed tokens.
 * With {@link #withTableClamp()} it is the rule with #49146 but not #49285: no crash, but a request
 * aborted mid-prefill still stores chunks it never computed. It wraps the real decider; {@code src/main}
 * is untouched.
 */
final class PreFixAbortRule implements BiFunction<EngineState, EngineCommand, Decision> {

    private final boolean tableClamp;

    PreFixAbortRule() {
        this(false);
    }

    private PreFixAbortRule(boolean tableClamp) {
        this.tableClamp = tableClamp;
    }

    /** The bound {@code n} clamped by the block table (#49146 alone). */
    static PreFixAbortRule withTableClamp() {
        return new PreFixAbortRule(true);
    }

    @Override
    public Decision apply(EngineState state, EngineCommand command) {
        Decision real = Decider.decide(state, command);
        if (!(command instanceof AbortRequest abort) || !(real instanceof Decision.Accepted accepted)) {
            return real;
        }
        RequestState request = state.heldRequest(abort.requestId());
        EngineConfig config = state.config();
        int f = config.blocksPerChunk();
        int storable = Math.min(request.numTokens() / config.chunkTokens(), request.keyCount(f));
        if (tableClamp) {
            storable = Math.min(storable, request.blockTable().size() / f);
        }
        int cursor = request.cursor();
        if (storable <= cursor) {
            return real;
        }
        List<Integer> chunks = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int chunk = cursor; chunk < storable; chunk++) {
            chunks.add(chunk);
            keys.add(request.key(chunk, f));
        }
        int size = request.blockTable().size();
        List<Integer> blocks = request.blockTable().subSequence(Math.min(cursor * f, size), Math.min(storable * f, size)).asJava();
        if (blocks.size() != keys.size() * f) {
            throw new AssertionError("assert len(offload_keys) == len(offload_block_ids): " + keys.size() + " keys, "
                    + blocks.size() + " block ids");
        }
        List<EngineEvent> events = new ArrayList<>();
        for (EngineEvent event : accepted.events()) {
            if (event instanceof StoreJobScheduled || event instanceof StoreDeferred || event instanceof ChunksEvicted) {
                continue; // replaced by the pre-fix store
            }
            events.add(event);
            if (event instanceof RequestAborted) {
                events.add(new StoreJobScheduled(state.nextJobId(), request.requestId(), chunks, keys, List.copyOf(blocks)));
            }
        }
        return new Decision.Accepted(events);
    }
}
