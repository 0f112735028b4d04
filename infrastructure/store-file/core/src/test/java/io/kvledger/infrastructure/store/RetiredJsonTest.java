package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.RetiredRequests;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The retired requests in a snapshot keep the shape of the record of a map and a queue they were: statuses as
 * pairs, ids ascending, the order retired longest ago first, whatever the table's slots hold; and a snapshot whose
 * order and statuses disagree is refused, naming the id.
 */
class RetiredJsonTest {

    private static final EngineConfig CONFIG = new EngineConfig(4, 1, 1, 16, ReleasePolicy.FENCE, null, false);

    @Test
    void givenRetiredRequestsPastTheirCapacityWhenEncodedThenTheRecordShapeIdsAscendingAndOrderOldestFirst() throws Exception {
        RetiredRequests retired = RetiredRequests.empty(3).retire("r9", RequestStatus.ABORTED)
                .retire("r10", RequestStatus.FINISHED).retire("r2", RequestStatus.ABORTED).retire("r1", RequestStatus.FINISHED);
        EngineState state = EngineState.initial(CONFIG).withRetired(retired);

        String json = new String(StateCodec.encode(state), StandardCharsets.UTF_8);

        assertTrue(json.contains("\"retired\":{\"capacity\":3,\"statuses\":[[\"r1\",\"FINISHED\"],[\"r10\",\"FINISHED\"],"
                + "[\"r2\",\"ABORTED\"]],\"order\":[\"r10\",\"r2\",\"r1\"],\"forgotten\":1}"), json);
        EngineState decoded = StateCodec.decode(json.getBytes(StandardCharsets.UTF_8));
        assertEquals(state, decoded);
        assertEquals(retired.oldestFirst(), decoded.retired().oldestFirst());
    }

    @Test
    void givenASnapshotWhoseOrderNamesAnIdWithoutAStatusWhenDecodedThenRefusedNamingIt() throws Exception {
        RetiredRequests retired = RetiredRequests.empty(3).retire("a", RequestStatus.ABORTED);
        String json = new String(StateCodec.encode(EngineState.initial(CONFIG).withRetired(retired)), StandardCharsets.UTF_8);
        String broken = json.replace("\"order\":[\"a\"]", "\"order\":[\"b\"]");
        assertTrue(!broken.equals(json), "the order was changed");

        MismatchedInputException refused = assertThrows(MismatchedInputException.class,
                () -> StateCodec.decode(broken.getBytes(StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().contains("id b is in the order without a status"), refused.getMessage());
    }
}
