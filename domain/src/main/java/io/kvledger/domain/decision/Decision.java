package io.kvledger.domain.decision;

import io.kvledger.domain.UnicodeText;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.RequestCommand;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RejectionCode;
import java.util.List;

/** What a command decided: the events it produced, or why it was refused (which changes no state). */
public sealed interface Decision {

    /** The events to record for this command, a refusal becoming one {@link CommandRejected}. */
    List<EngineEvent> events(long line, EngineCommand command);

    /**
     * @param events the events, in the contract's order; the caller folds them ({@code EngineFold.evolve}) to
     *               have the state after them: deciding changed nothing
     */
    record Accepted(List<EngineEvent> events) implements Decision {

        public Accepted {
            events = List.copyOf(events);
        }

        @Override
        public List<EngineEvent> events(long line, EngineCommand command) {
            return events;
        }
    }

    record Rejected(RejectionCode code, String message) implements Decision {

        @Override
        public List<EngineEvent> events(long line, EngineCommand command) {
            return List.of(toEvent(line, command));
        }

        public CommandRejected toEvent(long line, EngineCommand command) {
            Object requestId = null;
            Object jobId = null;
            if (command instanceof RequestCommand request) {
                // An id that cannot be written exactly is not repeated: it is the reason for the rejection.
                requestId = UnicodeText.isWellFormed(request.requestId()) ? request.requestId() : null;
            } else if (command instanceof CompleteTransfer complete) {
                jobId = complete.jobId();
            } else if (command instanceof InvalidCommand invalid) {
                requestId = invalid.echoedRequestId();
                jobId = invalid.echoedJobId();
            }
            return new CommandRejected(line, command.name(), code, message, requestId, jobId);
        }
    }
}
