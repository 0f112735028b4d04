package io.kvledger.infrastructure.json;

import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.event.WindowBlocksFreed;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stable type names of the log (contract section 3). They are part of the file format, so they are
 * written here once rather than taken from class names, which may change.
 */
public final class EventTypes {

    private static final Map<String, Class<? extends EngineEvent>> BY_NAME = new LinkedHashMap<>();
    private static final Map<Class<? extends EngineEvent>, String> BY_CLASS = new LinkedHashMap<>();

    static {
        register("EngineConfigured", EngineConfigured.class);
        register("RequestRegistered", RequestRegistered.class);
        register("PrefixMatched", PrefixMatched.class);
        register("PrefixMatchDeferred", PrefixMatchDeferred.class);
        register("BlocksAllocated", BlocksAllocated.class);
        register("LoadJobScheduled", LoadJobScheduled.class);
        register("TokensComputed", TokensComputed.class);
        register("TokensRejected", TokensRejected.class);
        register("TokensAppended", TokensAppended.class);
        register("StoreJobScheduled", StoreJobScheduled.class);
        register("StoreDeferred", StoreDeferred.class);
        register("StoreJobCompleted", StoreJobCompleted.class);
        register("LoadJobCompleted", LoadJobCompleted.class);
        register("TransferAcknowledged", TransferAcknowledged.class);
        register("ChunksStored", ChunksStored.class);
        register("ChunksEvicted", ChunksEvicted.class);
        register("FlushRequired", FlushRequired.class);
        register("RequestPreempted", RequestPreempted.class);
        register("RequestAborted", RequestAborted.class);
        register("RequestFinished", RequestFinished.class);
        register("BlocksReleased", BlocksReleased.class);
        register("WindowBlocksFreed", WindowBlocksFreed.class);
        register("CacheReset", CacheReset.class);
        register("CommandRejected", CommandRejected.class);
    }

    private EventTypes() {
    }

    private static void register(String name, Class<? extends EngineEvent> type) {
        BY_NAME.put(name, type);
        BY_CLASS.put(type, name);
    }

    public static String nameOf(EngineEvent event) {
        return nameOf(event.getClass());
    }

    /** The type name of an event class. */
    public static String nameOf(Class<?> type) {
        String name = BY_CLASS.get(type);
        if (name == null) {
            throw new IllegalArgumentException("no type name for " + type.getName());
        }
        return name;
    }

    /** Every type name, in the contract's order. */
    public static java.util.Set<String> names() {
        return java.util.Collections.unmodifiableSet(BY_NAME.keySet());
    }

    /** The event class of a type name; empty for a type this version does not know (accepted and skipped). */
    public static Optional<Class<? extends EngineEvent>> classOf(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
