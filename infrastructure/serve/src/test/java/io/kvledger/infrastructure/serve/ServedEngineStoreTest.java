package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.LedgerStore;
import io.kvledger.domain.command.RegisterRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A server without a store keeps no events: the answers carry them, and a heap that grew by every step paid for it in collections. */
class ServedEngineStoreTest {

    @Test
    void withoutAStoreTheEventsAreNotKept() {
        assertEquals(LedgerStore.discarding().toString(), ServedEngine.withoutStore().toString());
    }

    @Test
    void withoutAStoreTheEngineStillCountsItsLogFromHelloToHello() throws Exception {
        try (ServedEngine engine = new ServedEngine(null, Optional.empty(), List.of())) {
            assertEquals(1, engine.hello(Optional.empty(), "test").lastSeq());
            Request.Step step = new Request.Step(List.of(new RegisterRequest("r1", List.of(1, 2, 3))), null, false, false);
            long[] firstSeq = new long[1];
            engine.step(step, (number, first, result, nanos) -> firstSeq[0] = first);
            assertEquals(2, firstSeq[0]);
            assertEquals(2, engine.hello(Optional.empty(), "test").lastSeq(), "the next client's hello says where the log is");
        }
    }
}
