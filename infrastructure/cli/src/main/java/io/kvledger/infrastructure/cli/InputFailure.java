package io.kvledger.infrastructure.cli;

import java.io.IOException;
import java.nio.file.Path;

/** An input could not be read (a directory, an unreadable file, a device error): exit 2, naming it. */
final class InputFailure extends IOException {

    InputFailure(Path file, IOException cause) {
        super("cannot read " + file + ": " + OutputFailure.reason(cause), cause);
    }
}
