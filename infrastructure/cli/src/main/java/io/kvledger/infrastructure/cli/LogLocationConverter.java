package io.kvledger.infrastructure.cli;

import io.kvledger.infrastructure.store.StoreLocation;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The log tools' LOG, read as every command reads a store location ({@link StoreLocation}): a path ending
 * with {@code /} is a store directory (and a file named so is refused), {@code file:PATH} is that path, and a
 * database is exported first.
 */
final class LogLocationConverter implements ITypeConverter<Path> {

    @Override
    public Path convert(String value) {
        StoreLocation location;
        try {
            location = StoreLocation.parseForReading(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
        if (location.path() == null) {
            throw new TypeConversionException(value + " is a database: the log tools read files; `kvledger export --store "
                    + value + " -o LOG` writes its log");
        }
        return location.path();
    }
}
