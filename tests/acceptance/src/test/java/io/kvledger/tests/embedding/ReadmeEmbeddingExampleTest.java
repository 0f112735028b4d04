package io.kvledger.tests.embedding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedding example of README.md, as written there, does what the README says. */
class ReadmeEmbeddingExampleTest {

    @TempDir
    Path dir;

    @Test
    void theReadmeShowsThisExample() throws Exception {
        String readme = Files.readString(Path.of("../../README.md"));
        String example = readme.substring(readme.indexOf("## Embedding"));
        example = example.substring(example.indexOf("```java\n"), example.indexOf("```\n", example.indexOf("```java\n") + 8));
        for (String line : List.of(
                "EngineConfig config = EngineConfig.DEFAULTS.withGpuBlockSize(16).withReleasePolicy(ReleasePolicy.FENCE);",
                "FileStores.ledger(Path.of(\"engine-0.jsonl\"), FsyncPolicy.ALWAYS, config)",
                "ledger.step(List.of(new RegisterRequest(\"r1\", promptTokens), new MatchPrefix(\"r1\")));",
                "new AllocateBlocks(\"r1\", List.of(7, 8)),", "new ComputeTokens(\"r1\", 32),", "new AbortRequest(\"r2\")));",
                "step.storeJobs()", "step.flushes()", "step.releases()", "step.rejections()")) {
            assertTrue(example.contains(line), "the README's embedding example has " + line + ":\n" + example);
        }
    }

    @Test
    void theReadmeExampleStoresTheComputedChunksAndResumes() {
        List<Integer> promptTokens = IntStream.range(0, 40).boxed().toList();
        EngineConfig config = EngineConfig.DEFAULTS.withGpuBlockSize(16).withReleasePolicy(ReleasePolicy.FENCE);
        Path file = dir.resolve("engine-0.jsonl");
        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.ALWAYS, config)) {
            ledger.step(List.of(new RegisterRequest("r1", promptTokens), new MatchPrefix("r1")));
            StepResult step = ledger.step(List.of(
                    new AllocateBlocks("r1", List.of(7, 8)),
                    new ComputeTokens("r1", 32),
                    new AbortRequest("r2")));

            assertEquals(List.of(0, 1), step.storeJobs().get(0).chunkIndices().flat());
            assertEquals(List.of(7, 8), step.storeJobs().get(0).blockIds().flat());
            assertEquals(List.of(), step.flushes());
            assertEquals(RejectionCode.UNKNOWN_REQUEST, step.rejections().get(0).code(), "r2 was never registered");
        }

        try (KvLedger resumed = FileStores.ledger(file, FsyncPolicy.ALWAYS, config)) {
            assertTrue(resumed.resumed());
            assertEquals(2, resumed.state().heldRequest("r1").cursor(), "the stored chunks are remembered");
        }
    }
}
