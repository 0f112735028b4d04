package io.kvledger.infrastructure.store;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.event.EngineEvent;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * A store chosen by URL (such as {@code jdbc:postgresql://...}), found on the class path through
 * {@link ServiceLoader}, so that the command line reaches stores that live in modules it does not
 * depend on (the JDBC store). A file path needs none: it is the JSON Lines file store.
 */
public interface StoreProvider {

    /** Whether this provider opens {@code url}. */
    boolean accepts(String url);

    /** A builder of the ledger of {@code engineId} at {@code url}; the ledger owns what it opened. */
    KvLedger.Builder ledger(String url, String engineId);

    /**
     * Gives each stored event of {@code engineId}, in order, to {@code each}; returns how many.
     *
     * @throws IllegalArgumentException when the store holds no events of that engine
     */
    long readEvents(String url, String engineId, Consumer<EngineEvent> each);

    /** The provider that opens {@code url}, if one is on the class path. */
    static Optional<StoreProvider> forUrl(String url) {
        for (StoreProvider provider : ServiceLoader.load(StoreProvider.class)) {
            if (provider.accepts(url)) {
                return Optional.of(provider);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code store} names a URL (scheme:...) rather than a file. */
    static boolean isUrl(String store) {
        return store.matches("[a-zA-Z][a-zA-Z0-9+.-]*:.+") && !store.matches("[a-zA-Z]:[\\\\/].*");
    }
}
