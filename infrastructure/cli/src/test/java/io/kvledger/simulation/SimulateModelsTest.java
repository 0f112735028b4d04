package io.kvledger.simulation;

import static io.kvledger.simulation.SimulateCommandTest.run;
import static io.kvledger.simulation.SimulateCommandTest.simulate;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.simulation.SimulateCommandTest.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger simulate --model} and {@code --groups}: grouped workloads, reproducible with {@code run}, bad choices refused. */
class SimulateModelsTest {

    private static final String GPT_OSS_GROUPS =
            "[{\"kind\": \"FULL\", \"blockSize\": 16}, {\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 16, \"slidingWindow\": 128}]";

    @TempDir
    Path dir;

    @Test
    void aGroupedModelsLogEchoesItsGroupsAndRunOfItsCommandsGivesTheSameLog() throws IOException {
        Path log = dir.resolve("gpt-oss.jsonl");
        Path scenario = dir.resolve("gpt-oss.scenario.jsonl");
        Path rerun = dir.resolve("rerun.jsonl");
        Result simulated = simulate("--model", "gpt-oss", "--requests", "150", "--seed", "2", "-o", log.toString(),
                "--scenario", scenario.toString());
        assertEquals(0, simulated.exit(), simulated.err());
        assertTrue(simulated.out().contains("violations 0\n"), "the audit's rules judge grouped runs too: " + simulated.out());
        String config = Files.readAllLines(log).get(0);
        assertTrue(config.endsWith("\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 16, \"eagle\": false}, {\"kind\": "
                + "\"SLIDING_WINDOW\", \"blockSize\": 16, \"slidingWindow\": 128, \"eagle\": false}]}"), config);
        assertTrue(Files.readString(scenario).contains("\"cmd\": \"FreeWindowBlocks\""), "the host reports its frees");
        assertEquals(0, run(scenario.toString(), "-o", rerun.toString()).exit());
        assertArrayEquals(Files.readAllBytes(log), Files.readAllBytes(rerun));
    }

    @Test
    void groupsGivenAsJsonAreTheModelOfTheSameGroups() throws IOException {
        Path named = dir.resolve("named.jsonl");
        Path given = dir.resolve("given.jsonl");
        assertEquals(0, simulate("--model", "gpt-oss", "--requests", "100", "--seed", "5", "-o", named.toString()).exit());
        Result result = simulate("--groups", GPT_OSS_GROUPS, "--requests", "100", "--seed", "5", "-o", given.toString());
        assertEquals(0, result.exit(), result.err());
        assertArrayEquals(Files.readAllBytes(named), Files.readAllBytes(given));
    }

    @Test
    void everyNamedModelRunsClean() {
        for (String model : new String[] {"default", "gemma3", "eagle", "mixed-blocks"}) {
            Result result = simulate("--model", model, "--requests", "40", "--seed", "3", "-o", dir.resolve(model).toString());
            assertEquals(0, result.exit(), model + ": " + result.err());
            assertTrue(result.out().contains("simulated 40 requests (seed 3)"), result.out());
        }
    }

    @Test
    void aBadChoiceOfModelOrGroupsIsAUsageErrorNamingIt() {
        Result unknown = simulate("--model", "llama", "--requests", "1");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("unknown model 'llama'; known: default, gemma3, gpt-oss, eagle, mixed-blocks"),
                unknown.err());
        Result both = simulate("--model", "gpt-oss", "--groups", GPT_OSS_GROUPS, "--requests", "1");
        assertEquals(2, both.exit());
        assertTrue(both.err().contains("--model and --groups exclude each other"), both.err());
        Result noWindow = simulate("--groups", "[{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 16}]", "--requests", "1");
        assertEquals(2, noWindow.exit());
        assertTrue(noWindow.err().contains("groups[0]") && noWindow.err().contains("slidingWindow"), noWindow.err());
        Result notJson = simulate("--groups", "[{", "--requests", "1");
        assertEquals(2, notJson.exit());
        assertTrue(notJson.err().contains("--groups: not valid JSON at column 3: the line ends inside a JSON value"), notJson.err());
    }
}
