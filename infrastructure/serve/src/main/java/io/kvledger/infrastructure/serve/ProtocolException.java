package io.kvledger.infrastructure.serve;

/** Thrown while reading or executing a request that is answered with an {@link ProtocolError}. */
final class ProtocolException extends Exception {

    private final transient ProtocolError error;

    ProtocolException(ProtocolError.Code code, String message) {
        this(new ProtocolError(code, message));
    }

    ProtocolException(ProtocolError error) {
        super(error.code() + ": " + error.message(), null, false, false);
        this.error = error;
    }

    ProtocolError error() {
        return error;
    }
}
