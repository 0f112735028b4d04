package com.example.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.testkit.LedgerFixture;
import io.kvledger.testkit.scenario.ScenarioFolder;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

class SchedulerTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4);

    @TempDir
    Path dir;

    /** Given-when-then with the testkit: an aborted request's blocks are free at once. */
    @Test
    void anAbortedRequestFreesItsBlocksAtOnce() {
        Requests host = new Requests(4);
        LedgerFixture.with(CONFIG)
                .givenCommands(host.admit("r", 8))
                .when(host.abort("r"))
                .thenReleases(new BlocksReleased("r", List.of(0, 1)))
                .thenFlushes()
                .thenRejections();
    }

    /** One embedded ledger on the file store: the host submits the store and frees the blocks; a reopened ledger resumes. */
    @Test
    void theEmbeddedLedgerDrivesTheHostAndResumes() {
        Path store = dir.resolve("engine-0.jsonl");
        try (KvLedger ledger = FileStores.ledger(store, FsyncPolicy.ALWAYS, CONFIG)) {
            Requests requests = new Requests(4);
            Scheduler host = new Scheduler(ledger);
            host.step(requests.admit("r", 8));
            host.step(requests.compute("r", 8));
            host.step(requests.abort("r"));
            assertEquals(1, host.storesSubmitted().size(), "the two computed blocks go to the CPU tier");
            assertEquals(List.of(0, 1), host.blocksFreed());
        }
        try (KvLedger resumed = FileStores.ledger(store, FsyncPolicy.ALWAYS, CONFIG)) {
            assertEquals(true, resumed.resumed());
        }
    }

    /** Every scenario of the folder against its expectation file. */
    @TestFactory
    Stream<DynamicTest> scenarios() {
        return ScenarioFolder.tests(Path.of("src/test/resources/scenarios"));
    }

    /** The JUnit the tests run on is one version throughout: the BOM aligned the testkit's JUnit with the host's. */
    @Test
    void theJUnitOnTheClassPathIsOneVersion() throws Exception {
        assertEquals(version("org.junit.jupiter.api.Test"), version("org.junit.jupiter.engine.JupiterTestEngine"),
                "junit-jupiter-api and junit-jupiter-engine");
        assertEquals(version("org.junit.platform.commons.util.ReflectionUtils"), version("org.junit.platform.engine.TestEngine"),
                "junit-platform-commons and junit-platform-engine");
    }

    private static String version(String className) throws ClassNotFoundException {
        return Class.forName(className).getPackage().getImplementationVersion();
    }
}
