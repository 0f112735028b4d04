package io.kvledger.infrastructure.serve;

/**
 * A request the server refuses as a whole; it changed nothing. Answered as
 * {@code {"error": {"code": ..., "message": ..., "index": ...}}}, and the session goes on.
 *
 * @param index the position (from 0) of the offending command in the request's {@code step}, or -1
 */
public record ProtocolError(Code code, String message, int index) {

    /** Stable codes a client may switch on (docs/serve-protocol.md). */
    public enum Code {
        /** The line is not valid JSON (or not UTF-8). */
        NOT_JSON,
        /** The line is JSON but not an object with exactly one of {@code hello} or {@code step}. */
        BAD_REQUEST,
        /** A {@code step} before the session's {@code hello}. */
        HELLO_REQUIRED,
        /** The client asks for a protocol version this server does not speak. */
        UNSUPPORTED_PROTOCOL,
        /** The hello's config is not a valid config (contract section 2). */
        BAD_CONFIG,
        /** The hello's config differs from the engine's (one engine per server). */
        CONFIG_MISMATCH,
        /** A command of the step that cannot be read at all (not an object, {@code cmd} missing or unknown). */
        MALFORMED_COMMAND,
        /** The line is longer than the server accepts. */
        LINE_TOO_LONG,
        /** Another client is connected (one client at a time); sent once, then the connection is closed. */
        BUSY,
        /** The server is stopping; the step was not executed. */
        SHUTTING_DOWN,
        /** The engine failed while deciding the step; the step changed nothing. */
        INTERNAL
    }

    public ProtocolError(Code code, String message) {
        this(code, message, -1);
    }
}
