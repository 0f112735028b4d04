package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One command's scenario line (contract section 2) in one place: its {@code cmd} name, how its fields are
 * read and how they are written. {@link CommandParser} and {@link ScenarioWriter} only look codecs up, so a
 * new command is one entry here (and a branch of the {@code Decider}); {@code CommandCodecTest} proves
 * every command type has both, and that writing then parsing gives the record back.
 *
 * @param name   the {@code cmd} of the line, equal to the record's {@code name()}
 * @param type   the record
 * @param parser the fields to the record, or to an {@code InvalidCommand} naming the first bad field
 * @param writer the record's fields onto a line that already holds its {@code cmd}
 */
public record CommandCodec<C extends EngineCommand>(String name, Class<C> type, Function<CommandFields, EngineCommand> parser,
                                                    BiConsumer<C, ObjectNode> writer) {

    /** Every command of the scenario language, in the contract's order. */
    public static final List<CommandCodec<?>> ALL = List.of(
            codec("RegisterRequest", RegisterRequest.class,
                    f -> f.build(new RegisterRequest(f.requestId(), f.intArray("promptTokens"),
                            f.optionalInteger("maxOffloadTokens"), f.optionalInteger("maxLoadTokens"),
                            f.optionalFlag("skipReadingPrefixCache"))),
                    (c, n) -> {
                        ints(n.put("requestId", c.requestId()).putArray("promptTokens"), c.promptTokens());
                        // The controls of contract 9.1 only when given, so a line without them is as before.
                        if (c.maxOffloadTokens() != null) {
                            n.put("maxOffloadTokens", c.maxOffloadTokens());
                        }
                        if (c.maxLoadTokens() != null) {
                            n.put("maxLoadTokens", c.maxLoadTokens());
                        }
                        if (c.skipReadingPrefixCache() != null) {
                            n.put("skipReadingPrefixCache", c.skipReadingPrefixCache());
                        }
                    }),
            codec("MatchPrefix", MatchPrefix.class,
                    f -> f.build(new MatchPrefix(f.requestId(), f.optionalInt("gpuHitTokens", 0))),
                    (c, n) -> n.put("requestId", c.requestId()).put("gpuHitTokens", c.gpuHitTokens())),
            codec("AllocateBlocks", AllocateBlocks.class,
                    f -> f.build(new AllocateBlocks(f.requestId(), f.perGroupIds("blockIds"), f.optionalInt("externalTokens", 0))),
                    (c, n) -> {
                        perGroup(n.put("requestId", c.requestId()), "blockIds", c.blockIds());
                        n.put("externalTokens", c.externalTokens());
                    }),
            codec("ComputeTokens", ComputeTokens.class,
                    f -> f.build(new ComputeTokens(f.requestId(), f.requiredInt("tokens"))),
                    (c, n) -> n.put("requestId", c.requestId()).put("tokens", c.tokens())),
            codec("RejectTokens", RejectTokens.class,
                    f -> f.build(new RejectTokens(f.requestId(), f.requiredInt("tokens"))),
                    (c, n) -> n.put("requestId", c.requestId()).put("tokens", c.tokens())),
            codec("AppendTokens", AppendTokens.class,
                    f -> f.build(new AppendTokens(f.requestId(), f.intArray("tokens"))),
                    (c, n) -> ints(n.put("requestId", c.requestId()).putArray("tokens"), c.tokens())),
            codec("CompleteTransfer", CompleteTransfer.class,
                    f -> f.build(new CompleteTransfer(f.requiredLong("jobId"), f.optionalBoolean("success", true))),
                    (c, n) -> n.put("jobId", c.jobId()).put("success", c.success())),
            codec("PreemptRequest", PreemptRequest.class,
                    f -> f.build(new PreemptRequest(f.requestId())),
                    (c, n) -> n.put("requestId", c.requestId())),
            codec("AbortRequest", AbortRequest.class,
                    f -> f.build(new AbortRequest(f.requestId())),
                    (c, n) -> n.put("requestId", c.requestId())),
            codec("FinishRequest", FinishRequest.class,
                    f -> f.build(new FinishRequest(f.requestId(), f.reason())),
                    (c, n) -> n.put("requestId", c.requestId()).put("reason", c.reason().name())),
            codec("ResetCache", ResetCache.class, f -> new ResetCache(), (c, n) -> { }),
            // Known only when the config gives groups (CommandParser): an unknown cmd without them (contract 7.0).
            codec("FreeWindowBlocks", FreeWindowBlocks.class,
                    f -> f.build(new FreeWindowBlocks(f.requestId(), f.perGroupIds("blockIds"))),
                    (c, n) -> perGroup(n.put("requestId", c.requestId()), "blockIds", c.blockIds())));

    private static final Map<String, CommandCodec<?>> BY_NAME = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(CommandCodec::name, c -> c));
    private static final Map<Class<?>, CommandCodec<?>> BY_TYPE = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(CommandCodec::type, c -> c));

    private static <C extends EngineCommand> CommandCodec<C> codec(String name, Class<C> type,
            Function<CommandFields, EngineCommand> parser, BiConsumer<C, ObjectNode> writer) {
        return new CommandCodec<>(name, type, parser, writer);
    }

    public static Optional<CommandCodec<?>> named(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    public static Optional<CommandCodec<?>> of(EngineCommand command) {
        return Optional.ofNullable(BY_TYPE.get(command.getClass()));
    }

    /** Writes {@code command}'s fields onto {@code node}; the caller checked that it is of {@link #type}. */
    void writeFields(EngineCommand command, ObjectNode node) {
        writer.accept(type.cast(command), node);
    }

    private static void ints(ArrayNode array, List<Integer> values) {
        values.forEach(array::add);
    }

    /** A per-group field: the flat list for one group, a list of lists for more (contract section 7.2). */
    private static void perGroup(ObjectNode node, String field, PerGroup<Integer> values) {
        ArrayNode array = node.putArray(field);
        if (values.groupCount() == 1) {
            idsOrNulls(array, values.group(0));
            return;
        }
        for (List<Integer> list : values.lists()) {
            idsOrNulls(array.addArray(), list);
        }
    }

    private static void idsOrNulls(ArrayNode array, List<Integer> values) {
        for (Integer value : values) {
            if (value == null) {
                array.addNull();
            } else {
                array.add(value);
            }
        }
    }
}
