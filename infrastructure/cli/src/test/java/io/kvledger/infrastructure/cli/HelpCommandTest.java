package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code kvledger help NAMES...} shows the usage of the command the names lead to, nested ones included. */
class HelpCommandTest {

    @Test
    void helpFleetNodeShowsTheFleetNodesUsageAsFleetNodeHelpDoes() {
        String[] help = run("help", "fleet", "node");
        assertEquals("0", help[0], help[2]);
        assertTrue(help[1].startsWith("Usage: kvledger fleet node "), help[1]);
        assertEquals(run("fleet", "node", "--help")[1], help[1]);
    }

    @Test
    void helpOfOneCommandAndOfNoneAreAsBefore() {
        assertTrue(run("help", "fleet")[1].startsWith("Usage: kvledger fleet "));
        assertEquals(run("run", "--help")[1], run("help", "run")[1]);
        assertTrue(run("help")[1].startsWith("Usage: kvledger "));
    }

    @Test
    void anUnknownNameIsAUsageError() {
        String[] help = run("help", "fleet", "nodes");
        assertEquals("2", help[0]);
        assertTrue(help[2].contains("Unknown subcommand 'nodes' of kvledger fleet"), help[2]);
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new String[] {Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }
}
