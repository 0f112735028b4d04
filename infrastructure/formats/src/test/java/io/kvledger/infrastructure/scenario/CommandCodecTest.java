package io.kvledger.infrastructure.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.RequestCommand;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** One codec per command: every command type has a codec and a decision branch, and survives a round trip. */
class CommandCodecTest {

    /** Every record of the scenario language, found from the sealed hierarchy (so a new one cannot be missed). */
    private static Set<Class<?>> commandTypes() {
        Set<Class<?>> types = new HashSet<>();
        List<Class<?>> open = new ArrayList<>(List.of(EngineCommand.class));
        while (!open.isEmpty()) {
            Class<?> type = open.remove(0);
            if (type.isSealed()) {
                open.addAll(List.of(type.getPermittedSubclasses()));
            } else if (type != InvalidCommand.class) {
                types.add(type);
            }
        }
        return types;
    }

    private static EngineCommand sample(Class<?> type, Random random) {
        return sample(type, random, 1);
    }

    /** A grouped config for the per-group fields: two groups, the second a sliding window. */
    private static final EngineConfig GROUPED = EngineConfig.DEFAULTS.withGroups(
            List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 8)));

    /** A per-group list of block ids for {@code groups} groups, with null entries (a null block) now and then. */
    private static PerGroup<Integer> perGroup(Random random, int groups) {
        List<List<Integer>> lists = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            List<Integer> ids = new ArrayList<>();
            for (int i = random.nextInt(6); i > 0; i--) {
                ids.add(random.nextInt(8) == 0 ? null : random.nextInt(Integer.MAX_VALUE));
            }
            lists.add(ids);
        }
        return PerGroup.of(lists);
    }

    private static EngineCommand sample(Class<?> type, Random random, int groups) {
        String id = random.nextBoolean() ? "r" + random.nextInt(1000) : "req-\u00e9\uD83D\uDE00" + random.nextInt(9);
        Function<Integer, List<Integer>> ints = n -> random.ints(n, 0, Integer.MAX_VALUE).boxed().toList();
        int count = random.nextInt(Integer.MAX_VALUE);
        return switch (type.getSimpleName()) {
            case "RegisterRequest" -> new RegisterRequest(id, ints.apply(1 + random.nextInt(40)),
                    random.nextBoolean() ? null : random.nextInt(Integer.MAX_VALUE),
                    random.nextBoolean() ? null : random.nextInt(Integer.MAX_VALUE),
                    random.nextBoolean() ? null : random.nextBoolean());
            case "MatchPrefix" -> new MatchPrefix(id, count);
            case "AllocateBlocks" -> groups == 1 ? new AllocateBlocks(id, ints.apply(random.nextInt(10)), count)
                    : new AllocateBlocks(id, perGroup(random, groups), count);
            case "FreeWindowBlocks" -> new FreeWindowBlocks(id, perGroup(random, groups));
            case "ComputeTokens" -> new ComputeTokens(id, count);
            case "RejectTokens" -> new RejectTokens(id, count);
            case "AppendTokens" -> new AppendTokens(id, ints.apply(1 + random.nextInt(5)));
            case "CompleteTransfer" -> new CompleteTransfer(random.nextLong() & Long.MAX_VALUE, random.nextBoolean());
            case "PreemptRequest" -> new PreemptRequest(id);
            case "AbortRequest" -> new AbortRequest(id);
            case "FinishRequest" -> new FinishRequest(id, FinishReason.values()[random.nextInt(FinishReason.values().length)]);
            case "ResetCache" -> new ResetCache();
            default -> throw new AssertionError("no sample of " + type + ": add one, with its codec and decision");
        };
    }

    @Test
    void everyCommandTypeHasACodecUnderItsOwnName() {
        Set<Class<?>> withCodec = new HashSet<>();
        for (CommandCodec<?> codec : CommandCodec.ALL) {
            withCodec.add(codec.type());
            assertEquals(codec.name(), sample(codec.type(), new Random(1)).name(), codec.type().getSimpleName());
            assertEquals(RequestCommand.class.isAssignableFrom(codec.type()),
                    new InvalidCommand(codec.name(), null, "x", null, null).addressesRequest(), codec.name());
        }
        assertEquals(commandTypes(), withCodec);
        assertEquals(CommandCodec.ALL.size(), CommandCodec.ALL.stream().map(CommandCodec::name).distinct().count());
    }

    @Test
    void everyCommandTypeHasADecisionBranch() {
        EngineState state = EngineState.initial(EngineConfig.DEFAULTS);
        for (Class<?> type : commandTypes()) {
            Decision decision = Decider.decide(state, sample(type, new Random(2)));
            assertFalse(decision.events(1, sample(type, new Random(2))).isEmpty(), type.getSimpleName());
        }
    }

    @Test
    void writeThenParseGivesTheRecordBack() throws Exception {
        Random random = new Random(20261201);
        for (Class<?> type : commandTypes()) {
            for (int i = 0; i < 200; i++) {
                // FreeWindowBlocks is known only with groups; AllocateBlocks is tried with and without.
                boolean grouped = type == FreeWindowBlocks.class || (type == AllocateBlocks.class && random.nextBoolean());
                EngineConfig config = (grouped ? GROUPED : EngineConfig.DEFAULTS).withReleasePolicy(
                        ReleasePolicy.values()[random.nextInt(ReleasePolicy.values().length)]);
                EngineCommand command = sample(type, random, config.groupCount());
                String text = ScenarioWriter.toText(config, List.of(command));
                ScenarioReader reader = new ScenarioReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));

                ScenarioLine configLine = reader.next();
                ScenarioLine commandLine = reader.next();

                assertEquals(config, ((ScenarioLine.Config) configLine).config(), text);
                assertEquals(command, ((ScenarioLine.Command) commandLine).command(), text);
            }
        }
    }

    @Test
    void requestControlsAreWrittenOnlyWhenGivenAndBadValuesMakeAnInvalidCommand() {
        assertEquals("{\"cmd\": \"RegisterRequest\", \"requestId\": \"r\", \"promptTokens\": [1, 2]}",
                EventJson.toLine(ScenarioWriter.commandNode(new RegisterRequest("r", List.of(1, 2)))));
        assertEquals("{\"cmd\": \"RegisterRequest\", \"requestId\": \"r\", \"promptTokens\": [1], \"maxOffloadTokens\": 8,"
                        + " \"maxLoadTokens\": 0, \"skipReadingPrefixCache\": false}",
                EventJson.toLine(ScenarioWriter.commandNode(new RegisterRequest("r", List.of(1), 8, 0, false))));
        assertEquals(new RegisterRequest("r", List.of(1), null, 4, true), CommandParser.parse(register()
                .put("maxLoadTokens", 4).put("skipReadingPrefixCache", true)));
        // A negative count parses; its range is the decision's to refuse (INVALID_ARGUMENT in its turn).
        assertEquals(new RegisterRequest("r", List.of(1), -1, null, null), CommandParser.parse(register().put("maxOffloadTokens", -1)));
        assertInvalid(register().putNull("maxOffloadTokens"), "maxOffloadTokens must be an integer >= 0 when given, was null");
        assertInvalid(register().put("maxLoadTokens", 4.0), "maxLoadTokens must be an integer (without a fraction or exponent), was 4.0");
        assertInvalid(register().put("maxLoadTokens", "8"), "maxLoadTokens must be an integer, was \"8\"");
        assertInvalid(register().put("skipReadingPrefixCache", "yes"), "skipReadingPrefixCache must be true or false when given, was \"yes\"");
        assertInvalid(register().putNull("skipReadingPrefixCache"), "skipReadingPrefixCache must be true or false when given, was null");
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode register() {
        com.fasterxml.jackson.databind.node.ObjectNode node = EventJson.mapper().createObjectNode()
                .put("cmd", "RegisterRequest").put("requestId", "r");
        node.putArray("promptTokens").add(1);
        return node;
    }

    private static void assertInvalid(com.fasterxml.jackson.databind.node.ObjectNode line, String problem) {
        EngineCommand parsed = CommandParser.parse(line);
        assertInstanceOf(InvalidCommand.class, parsed, line.toString());
        assertEquals(problem, ((InvalidCommand) parsed).problem());
    }

    @Test
    void enumChoicesComeFromTheEnums() {
        for (FinishReason reason : FinishReason.values()) {
            EngineCommand parsed = CommandParser.parse(EventJson.mapper().createObjectNode()
                    .put("cmd", "FinishRequest").put("requestId", "r").put("reason", reason.name()));
            assertEquals(new FinishRequest("r", reason), parsed);
        }
        EngineCommand bad = CommandParser.parse(EventJson.mapper().createObjectNode()
                .put("cmd", "FinishRequest").put("requestId", "r").put("reason", "DONE"));
        assertInstanceOf(InvalidCommand.class, bad);
        assertTrue(((InvalidCommand) bad).problem().contains("\"STOPPED\" or \"LENGTH\""), ((InvalidCommand) bad).problem());
        for (ReleasePolicy policy : ReleasePolicy.values()) {
            assertEquals(policy, ConfigParser.parse(EventJson.mapper().createObjectNode().put("releasePolicy", policy.name()))
                    .releasePolicy());
        }
    }
}
