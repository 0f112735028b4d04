package io.kvledger.simulation.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.log.EventLogWriter;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.state.ActionChain;

/**
 * The scenario a chain is written as replays, through {@link ScenarioRunner} (what {@code kvledger run}
 * uses), to exactly the events the chain's engine produced: same lines, rejections' line numbers included.
 */
class FailedChainScenarioTest {

    @Property(tries = 40)
    void aWrittenChainRunsToTheSameEvents(@ForAll("chains") ActionChain<LedgerModel> chain) throws Exception {
        LedgerModel model = chain.run();
        try {
            Path file = FailedChainScenario.write("writer-check", model.config, model.commands);
            StringWriter expected = new StringWriter();
            new EventLogWriter(expected).writeAll(model.log);

            StringWriter replayed = new StringWriter();
            EventLogWriter log = new EventLogWriter(replayed);
            try (InputStream in = Files.newInputStream(file)) {
                new ScenarioRunner(config -> KvLedger.builder().config(config.orElse(EngineConfig.DEFAULTS)).build()).run(in, log);
            }
            assertEquals(expected.toString(), replayed.toString());
        } finally {
            model.close();
        }
    }

    @Provide
    Arbitrary<ActionChain<LedgerModel>> chains() {
        return new LedgerChainPropertiesTest().chains();
    }
}
