package io.kvledger.infrastructure.cli;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/** {@code --store} values: a file path, or a store location with a scheme ({@code jdbc:postgresql://...}, {@code file:...}). */
final class StoreLocations {

    private static final Pattern LOCATION = Pattern.compile("[a-z][a-z0-9+.-]+:.+");

    private StoreLocations() {
    }

    /** Whether {@code store} names a location (scheme:...) rather than a file; {@code C:\\x} is a file. */
    static boolean isLocation(String store) {
        return LOCATION.matcher(store).matches();
    }

    /** Opens the store at {@code location} for reading, through the module that provides its scheme. */
    static OpenStore open(String location) {
        String scheme = location.substring(0, location.indexOf(':'));
        for (LedgerStoreProvider provider : ServiceLoader.load(LedgerStoreProvider.class)) {
            if (provider.scheme().equals(scheme)) {
                provider.validate(location);
                return provider.open(location);
            }
        }
        throw new IllegalArgumentException("no store module on the class path opens '" + scheme + ":' locations");
    }
}
