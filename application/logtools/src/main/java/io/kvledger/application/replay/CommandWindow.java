package io.kvledger.application.replay;

import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the events of the current command have said so far. A log has no command boundaries, but each
 * command's events start with its own event ({@code TokensComputed}, {@code RequestAborted}, ...) and
 * go on with answers ({@code FlushRequired}, {@code ChunksEvicted}, jobs, {@code ChunksStored},
 * {@code BlocksReleased}) in the order of contract section 4; a {@code FlushRequired} that answers an
 * allocation comes just before its {@code BlocksAllocated}. Read it before {@link #observe} is given
 * the next step.
 */
public final class CommandWindow {

    private final Set<Long> flushedSinceCommand = new HashSet<>();
    private final Set<Long> flushedJustBefore = new HashSet<>();
    private final List<String> evictedSinceCommand = new ArrayList<>();
    private Allocation allocation;
    private EngineState beforeReset;

    /** The match an allocation used up, kept until the command ends so its load can be checked. */
    public record Allocation(long seq, String requestId, int externalTokens, PrefixMatch match) {
    }

    /** Whether an event is a command's own event rather than one of its answers. */
    public static boolean opensCommand(EngineEvent event) {
        return !(event instanceof FlushRequired || event instanceof ChunksEvicted || event instanceof StoreDeferred
                || event instanceof StoreJobScheduled || event instanceof LoadJobScheduled
                || event instanceof ChunksStored || event instanceof BlocksReleased);
    }

    public void observe(FoldStep step) {
        EngineEvent event = step.event();
        if (event == null) {
            return;
        }
        if (opensCommand(event)) {
            flushedSinceCommand.clear();
            evictedSinceCommand.clear();
            allocation = null;
            beforeReset = event instanceof CacheReset ? step.before() : null;
        }
        if (event instanceof FlushRequired e) {
            flushedSinceCommand.addAll(e.jobIds());
            flushedJustBefore.addAll(e.jobIds());
        } else {
            flushedJustBefore.clear();
        }
        if (event instanceof ChunksEvicted e) {
            evictedSinceCommand.addAll(e.keys());
        }
        if (event instanceof BlocksAllocated e) {
            RequestState request = step.before().heldRequest(e.requestId());
            PrefixMatch match = request == null ? null : request.pendingMatch();
            allocation = new Allocation(step.seq(), e.requestId(), e.externalTokens(), match);
        }
    }

    /** Jobs named by a {@code FlushRequired} of the current command (preemption, reset). */
    public boolean flushedInCommand(long jobId) {
        return flushedSinceCommand.contains(jobId);
    }

    /** Jobs named by the {@code FlushRequired} events right before the current event (an allocation's flush). */
    public boolean flushedJustBefore(long jobId) {
        return flushedJustBefore.contains(jobId);
    }

    /**
     * The state before the current command's {@code CacheReset}, {@code null} when the command is no reset:
     * the reset ends every job in its own event, so the jobs its releases must not free are known only here.
     */
    public EngineState beforeReset() {
        return beforeReset;
    }

    /** Token-derived keys evicted so far by the current command. */
    public List<String> evictedInCommand() {
        return List.copyOf(evictedSinceCommand);
    }

    /** The current command's allocation, when it is one, with the match it used up. */
    public Allocation allocation() {
        return allocation;
    }
}
