package io.kvledger.domain.command;

/**
 * A known command whose fields could not be read as their types (a field missing, {@code 4.0} for an
 * integer, {@code null} for an optional field, an unknown {@code reason}). It still goes through the
 * decision so that the precedence of rejection codes holds: an unknown request is named before a bad
 * field of it.
 *
 * @param name            the command's name
 * @param requestId       the request it addresses, or {@code null} when that id itself is missing or not a
 *                        string (or the command addresses no request)
 * @param problem         what is wrong, naming the field
 * @param echoedRequestId the {@code requestId} as given when it is a string or an integer, else {@code null}
 * @param echoedJobId     the {@code jobId} as given when it is a string or an integer, else {@code null}
 */
public record InvalidCommand(String name, String requestId, String problem,
                             Object echoedRequestId, Object echoedJobId) implements EngineCommand {

    /** Whether the command addresses a request (every command but CompleteTransfer and ResetCache). */
    public boolean addressesRequest() {
        return !"CompleteTransfer".equals(name) && !"ResetCache".equals(name);
    }
}
