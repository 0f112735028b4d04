package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streamed reader of step lines gives exactly what the general (tree) reader gives, for any line: the
 * same commands (or the same InvalidCommand), lines, timing and events, or, where it cannot, nothing, so the
 * general reader answers (the same refusal). And a host's plain compact step is read by it, not by the tree.
 */
class StreamedStepReaderTest {

    private static final EngineConfig GROUPS = config("{\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4},"
            + " {\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8}]}");

    @Property(tries = 3000)
    void anyLineReadsAsTheTreeReadsIt(@ForAll("lines") String line, @ForAll boolean groups) {
        EngineConfig config = groups ? GROUPS : null;
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        Object general = outcome(() -> RequestReader.readTree(bytes, bytes.length, config));
        Request.Step streamed = StreamedStepReader.read(bytes, bytes.length, config);
        if (streamed != null) {
            assertEquals(general, outcome(() -> streamed), line);
        }
        assertEquals(general, outcome(() -> RequestReader.read(bytes, bytes.length, config)), line);
        Statistics.label("streamed").collect(streamed != null);
        Statistics.label("streamed").coverage(c -> c.check(true).percentage(p -> p > 30));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"step\": [[\"AppendTokens\", \"r1\", [9]], [\"ComputeTokens\", \"r1\", 1], [\"CompleteTransfer\", 3],"
                    + " [\"AllocateBlocks\", \"r1\", [7, 8]], [\"MatchPrefix\", \"r1\", 4], [\"RegisterRequest\", \"r2\", [1, 2]]],"
                    + " \"events\": \"grouped\", \"timing\": true}",
            "{\"events\": \"all\", \"step\": [[\"CompleteTransfer\", 3, false], [\"FinishRequest\", \"r1\", \"LENGTH\"],"
                    + " {\"cmd\": \"AbortRequest\", \"requestId\": \"r1\"}, [\"ComputeTokens\", \"r1\", 1.5]], \"lines\": [4, 5, 6, 7]}",
    })
    void aHostsStepIsStreamed(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        Request.Step streamed = StreamedStepReader.read(bytes, bytes.length, null);
        assertNotNull(streamed, line);
        assertEquals(outcome(() -> RequestReader.readTree(bytes, bytes.length, null)), outcome(() -> streamed));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"hello\": {\"protocol\": 1}}",
            "{\"step\": [[\"ResetCache\"], 7]}",
            "{\"step\": [[\"Launch\"]]}",
            "{\"step\": [], \"step\": []}",
            "{\"step\": [[\"ResetCache\"]]} {}",
            "{\"step\": [[\"ResetCache\"]], \"lines\": [1, 2]}",
            "{\"step\": [[\"ResetCache\"]], \"timing\": 1}",
            "{\"step\": [[\"ComputeTokens\", \"r1\", 1]",
    })
    void whatTheGeneralReaderRefusesIsLeftToIt(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertNull(StreamedStepReader.read(bytes, bytes.length, null), line);
    }

    /** A step as a value: commands, lines, timing, events; or the refusal's error. */
    private static Object outcome(ReadAction read) {
        try {
            Request request = read.read();
            if (request instanceof Request.Step step) {
                return List.of(step.commands(), step.lines() == null ? "no lines" : java.util.Arrays.toString(step.lines()),
                        step.timing(), step.grouped());
            }
            return request;
        } catch (ProtocolException e) {
            return e.error();
        }
    }

    @FunctionalInterface
    private interface ReadAction {
        Request read() throws ProtocolException;
    }

    @Provide
    Arbitrary<String> lines() {
        Arbitrary<String> command = Arbitraries.frequencyOf(Tuple.of(12, validCommand()), Tuple.of(1, anyCommand()));
        Arbitrary<String> commands = command.list().ofMaxSize(8).map(list -> "[" + String.join(", ", list) + "]");
        Arbitrary<String> fine = Arbitraries.of("", ", \"timing\": true", ", \"timing\": false", ", \"events\": \"grouped\"",
                ", \"events\": \"all\"", ", \"lines\": null", ", \"other\": {\"a\": [1]}", ", \"hello\": {\"protocol\": 1}");
        Arbitrary<String> bad = Arbitraries.of(", \"timing\": 1", ", \"events\": \"some\"", ", \"events\": null",
                ", \"lines\": [1, 2]", ", \"lines\": [-1]", ", \"lines\": [3]", ", \"step\": []", ", \"timing\": true");
        Arbitrary<String> extra = Arbitraries.frequencyOf(Tuple.of(12, fine), Tuple.of(1, bad));
        Arbitrary<String> tail = Arbitraries.frequencyOf(Tuple.of(40, Arbitraries.just("}")),
                Tuple.of(1, Arbitraries.of("} {}", "", "}]", "} ")));
        return Combinators.combine(commands, extra, extra, tail)
                .as((step, a, b, end) -> "{\"step\": " + step + a + b + end);
    }

    /** What a host sends: each command with values of its type, optional trailing ones given or not. */
    private Arbitrary<String> validCommand() {
        Arbitrary<String> id = Arbitraries.of("\"r1\"", "\"r\\u00e9-2\"", "\"\"");
        Arbitrary<String> count = Arbitraries.of("0", "1", "16", "-3", "2147483647");
        Arbitrary<String> ints = count.list().ofMaxSize(4).map(list -> "[" + String.join(", ", list) + "]");
        Arbitrary<String> job = Arbitraries.of("0", "5", "9223372036854775807", "-1");
        Arbitrary<String> optional = Arbitraries.of("", ", 0", ", 4");
        return Arbitraries.oneOf(
                Combinators.combine(id, ints).as((i, t) -> "[\"AppendTokens\", " + i + ", " + t + "]"),
                Combinators.combine(id, count).as((i, t) -> "[\"ComputeTokens\", " + i + ", " + t + "]"),
                Combinators.combine(id, ints, optional).as((i, b, e) -> "[\"AllocateBlocks\", " + i + ", " + b + e + "]"),
                Combinators.combine(job, Arbitraries.of("", ", true", ", false")).as((j, s) -> "[\"CompleteTransfer\", " + j + s + "]"),
                Combinators.combine(id, ints).as((i, t) -> "[\"RegisterRequest\", " + i + ", " + t + "]"),
                Combinators.combine(id, optional).as((i, g) -> "[\"MatchPrefix\", " + i + g + "]"),
                Combinators.combine(id, count).as((i, t) -> "[\"RejectTokens\", " + i + ", " + t + "]"),
                id.map(i -> "[\"FinishRequest\", " + i + ", \"LENGTH\"]"),
                id.map(i -> "{\"cmd\": \"AbortRequest\", \"requestId\": " + i + "}"),
                Arbitraries.just("[\"ResetCache\"]"));
    }

    /** Anything in a command's place: wrong types, lone surrogates, numbers out of range, unknown names. */
    private Arbitrary<String> anyCommand() {
        Arbitrary<String> name = Arbitraries.of("AppendTokens", "ComputeTokens", "AllocateBlocks", "CompleteTransfer",
                "RegisterRequest", "MatchPrefix", "RejectTokens", "FinishRequest", "ResetCache", "FreeWindowBlocks",
                "PreemptRequest", "Launch").map(n -> "\"" + n + "\"");
        Arbitrary<String> id = Arbitraries.of("\"r1\"", "\"r\\ud800\"", "7", "null", "[\"r1\"]", "{}");
        Arbitrary<String> number = Arbitraries.of("1", "2147483648", "9223372036854775808", "1.5", "1e3", "2.0", "\"7\"",
                "null", "true", "[1]", "{\"a\": 1}");
        Arbitrary<String> ints = number.list().ofMaxSize(3).map(list -> "[" + String.join(", ", list) + "]");
        Arbitrary<String> nested = ints.list().ofMaxSize(2).map(list -> "[" + String.join(", ", list) + "]");
        Arbitrary<String> value = Arbitraries.oneOf(id, number, ints, nested, Arbitraries.of("true", "false", "\"LENGTH\""));
        Arbitrary<String> array = Combinators.combine(name, value.list().ofMaxSize(4))
                .as((n, rest) -> "[" + n + (rest.isEmpty() ? "" : ", " + String.join(", ", rest)) + "]");
        Arbitrary<String> object = Arbitraries.of("{\"cmd\": \"ComputeTokens\", \"requestId\": \"r1\", \"tokens\": 2.5}",
                "{\"cmd\": \"Launch\"}", "{\"requestId\": \"r1\"}", "{\"cmd\": \"ResetCache\", \"cmd\": \"ResetCache\"}");
        return Arbitraries.frequencyOf(Tuple.of(8, array), Tuple.of(1, object),
                Tuple.of(1, Arbitraries.of("[]", "7", "\"x\"", "[7]", "null")));
    }

    private static EngineConfig config(String json) {
        try {
            return ScenarioReader.config(EventJson.mapper().readTree(json));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
