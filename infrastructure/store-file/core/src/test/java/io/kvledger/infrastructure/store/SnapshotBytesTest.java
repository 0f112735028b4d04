package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * A snapshot writes the state as recorded, whatever the state keeps inside: the states of two simulated
 * logs (one group, and gpt-oss's groups with chunks evicted), every tenth event's, encode to the bytes of
 * {@code StateCodec} version 2 (their digest, taken when the orders became canonical: the shape is the one
 * the codec wrote while the CPU tier was a record of Vavr maps), and each decodes to a state equal to the
 * fold's that encodes to the same bytes again.
 */
class SnapshotBytesTest {

    @Test
    void statesOfOneGroupEncodeAsBefore() throws Exception {
        assertEquals("c0ccf63c", digest("/snapshots/tier-default.jsonl.gz"));
    }

    @Test
    void statesOfGroupsWithEvictionsEncodeAsBefore() throws Exception {
        assertEquals("5e75c1c5", digest("/snapshots/tier-gpt-oss.jsonl.gz"));
    }

    /** The first 8 hex digits of the SHA-256 of every tenth state's encoding, one line each. */
    static String digest(String resource) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        int[] states = {0};
        everyTenth(resource, state -> {
            byte[] bytes = StateCodec.encode(state);
            EngineState decoded = StateCodec.decode(bytes);
            assertEquals(state, decoded, "state " + states[0] + " decodes to itself");
            assertArrayEquals(bytes, StateCodec.encode(decoded), "state " + states[0] + " encodes again the same");
            sha.update(bytes);
            sha.update((byte) '\n');
            states[0]++;
        });
        assertTrue(states[0] > 100, "states: " + states[0]);
        return HexFormat.of().formatHex(sha.digest()).substring(0, 8);
    }

    /** What is done with a state while it is the newest of its fold. */
    interface StateCheck {
        void accept(EngineState state) throws Exception;
    }

    /** Every tenth state of the log's fold and its last, each checked before the next event is folded into it. */
    private static void everyTenth(String resource, StateCheck check) throws Exception {
        try (InputStream in = new GZIPInputStream(SnapshotBytesTest.class.getResourceAsStream(resource))) {
            EventLogReader reader = new EventLogReader(in);
            EngineState state = null;
            int n = 0;
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                state = EngineFold.evolve(state, entry.event());
                if (n++ % 10 == 0) {
                    check.accept(state);
                }
            }
            check.accept(state);
        }
    }
}
