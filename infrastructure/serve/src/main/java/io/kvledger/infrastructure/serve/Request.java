package io.kvledger.infrastructure.serve;

import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import java.util.List;
import java.util.Optional;

/** One line a client sends: the session's {@code hello}, or one scheduler step. */
sealed interface Request {

    /**
     * @param protocol the version the client speaks
     * @param config   the engine config it expects, if it names one
     * @param client   what the client says it is (for the server's log), may be empty
     */
    record Hello(int protocol, Optional<EngineConfig> config, String client) implements Request {
    }

    /**
     * @param commands the step's commands, in order
     * @param lines    the number a rejection names for each command (the host's own, e.g. a scenario's
     *                 lines), or {@code null} to number them in the order the server receives them
     * @param timing   whether the answer says how long the server took to parse, step and encode
     * @param grouped  whether the answer holds only the events of the host's groups (jobs, flushes,
     *                 releases, rejections) instead of every event of the step
     */
    record Step(List<EngineCommand> commands, long[] lines, boolean timing, boolean grouped) implements Request {
    }
}
