package io.kvledger.tests.embedding;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.testkit.LedgerFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The testkit example of docs/testkit.md, compiled and run as written there (the last test checks it is the same text). */
class MyHostTest {
    private final MyHost host = new MyHost(4);   // your adapter: scheduler decisions -> kvledger commands

    @Test
    void anAbortedRequestFreesItsBlocksAtOnce() {
        LedgerFixture.with(EngineConfig.DEFAULTS.withGpuBlockSize(4))
                .givenCommands(host.admit("r", 8))                    // RegisterRequest, MatchPrefix, AllocateBlocks
                .when(host.abort("r"))
                .thenReleases(new BlocksReleased("r", List.of(0, 1)))
                .thenFlushes()
                .thenRejections();
    }

    @Test
    void theTestkitPageShowsExactlyThisExample() throws Exception {
        String readme = Files.readString(Path.of("../../docs/testkit.md"));
        String example = readme.substring(readme.indexOf("class MyHostTest {"));
        example = example.substring(0, example.indexOf("```"));
        String source = Files.readString(Path.of("src/test/java/io/kvledger/tests/embedding/MyHostTest.java"));
        for (String line : example.strip().split("\n")) {
            assertTrue(source.contains(line), "docs/testkit.md line not in this test: " + line);
        }
        assertTrue(example.lines().count() >= 10, example);
    }
}
