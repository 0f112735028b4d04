package io.kvledger.application;

import io.kvledger.application.axon.BuiltInStores;
import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Where a ledger keeps its events, named by a location whose scheme picks the store module:
 * {@code mem:} (the default, in memory), {@code none:} (kept nowhere), {@code file:PATH[?fsync=always|never|interval:MS]}
 * (module {@code kvledger-store-file}), and whatever scheme another module on the class path provides
 * (a JDBC URL from a JDBC store module). A value: nothing is opened until a ledger is built on it, and
 * the ledger then owns what it opened.
 *
 * <pre>{@code
 * KvLedger.builder().store(LedgerStore.file(Path.of("engine-0.jsonl"))).build();
 * KvLedger.builder().store(LedgerStore.of("file:engine-0.jsonl?fsync=interval:100")).build();
 * }</pre>
 */
public final class LedgerStore {

    private static final Pattern SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");
    private static final List<LedgerStoreProvider> BUILT_IN = List.of(new BuiltInStores.InMemory(), new BuiltInStores.Discarding());

    private final String location;
    private final Supplier<? extends OpenStore> opener;

    private LedgerStore(String location, Supplier<? extends OpenStore> opener) {
        this.location = location;
        this.opener = opener;
    }

    /** The events live in memory as long as the ledger (the default). */
    public static LedgerStore inMemory() {
        return of("mem:");
    }

    /** Nothing is kept: for runs whose record is elsewhere (a simulation's own log, a benchmark). */
    public static LedgerStore discarding() {
        return of("none:");
    }

    /** The JSON Lines store file at {@code file}, forced to disk after every step (needs {@code kvledger-store-file}). */
    public static LedgerStore file(Path file) {
        return of("file:" + Objects.requireNonNull(file, "file"));
    }

    /**
     * The store at {@code location}, opened by the module that provides its scheme.
     *
     * @throws IllegalArgumentException when the location has no scheme, no module on the class path
     *                                  provides it, or the module refuses the location
     */
    public static LedgerStore of(String location) {
        Objects.requireNonNull(location, "location");
        int colon = location.indexOf(':');
        String scheme = colon < 0 ? "" : location.substring(0, colon);
        if (!SCHEME.matcher(scheme).matches()) {
            throw new IllegalArgumentException("a store location starts with its scheme, e.g. file:engine.jsonl or mem:, was '"
                    + location + "'");
        }
        LedgerStoreProvider provider = provider(scheme, location);
        provider.validate(location);
        return new LedgerStore(location, () -> provider.open(location));
    }

    /**
     * For store modules: a store opened by {@code opener} when the ledger is built, e.g. one the module's
     * caller already holds. {@code location} only names it in messages.
     */
    public static LedgerStore opened(String location, Supplier<? extends OpenStore> opener) {
        return new LedgerStore(Objects.requireNonNull(location, "location"), Objects.requireNonNull(opener, "opener"));
    }

    /** The location, scheme included. */
    public String location() {
        return location;
    }

    OpenStore open() {
        return Objects.requireNonNull(opener.get(), () -> "the store " + location + " opened to nothing");
    }

    @Override
    public String toString() {
        return location;
    }

    private static LedgerStoreProvider provider(String scheme, String location) {
        // The engine's own schemes need no class-path scan: every builder starts on mem:.
        for (LedgerStoreProvider builtIn : BUILT_IN) {
            if (builtIn.scheme().equals(scheme)) {
                return builtIn;
            }
        }
        List<LedgerStoreProvider> providers = new ArrayList<>(BUILT_IN);
        ServiceLoader.load(LedgerStoreProvider.class).forEach(providers::add);
        ServiceLoader.load(LedgerStoreProvider.class, LedgerStore.class.getClassLoader()).forEach(providers::add);
        TreeSet<String> known = new TreeSet<>();
        for (LedgerStoreProvider provider : providers) {
            if (provider.scheme().equals(scheme)) {
                return provider;
            }
            known.add(provider.scheme());
        }
        throw new IllegalArgumentException("no store module on the class path opens '" + scheme + ":' locations (" + location
                + "); known schemes: " + known + ". Add the module that provides it, e.g. kvledger-store-file for file:");
    }
}
