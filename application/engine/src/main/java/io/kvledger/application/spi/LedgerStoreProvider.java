package io.kvledger.application.spi;

/**
 * Opens the stores of one location scheme for {@link io.kvledger.application.LedgerStore#of}. A store
 * module implements it and lists the class in
 * {@code META-INF/services/io.kvledger.application.spi.LedgerStoreProvider}; the engine finds it with
 * {@link java.util.ServiceLoader} and never depends on the module. Implementations need a public
 * no-argument constructor.
 *
 * <p>The engine ships {@code mem:} (Axon's in-memory engine) and {@code none:} (keeps nothing);
 * {@code kvledger-store-file} adds {@code file:}.
 */
public interface LedgerStoreProvider {

    /** The scheme this provider opens, lower case, without the colon: {@code file} for {@code file:/var/x.jsonl}. */
    String scheme();

    /**
     * Checks {@code location} (the whole string, scheme included) without opening anything, so a bad
     * location is refused where it is named rather than when the ledger is built.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    default void validate(String location) {
    }

    /** Opens the store at {@code location}; called once, when a ledger is built on it. */
    OpenStore open(String location);
}
