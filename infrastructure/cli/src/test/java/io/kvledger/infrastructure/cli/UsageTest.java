package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** With no command the usage goes to stderr with exit 2, as picocli reports a missing argument; every summary is a sentence. */
class UsageTest {

    @Test
    void noCommandPrintsTheUsageAndExits2() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8));
        String usage = err.toString(StandardCharsets.UTF_8);

        assertEquals(2, exit);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(usage.startsWith("a command is required (run, "), usage);
        assertTrue(usage.contains("Usage: kvledger [-hV] [COMMAND]"), usage);
        for (String command : List.of("run", "replay", "audit", "explain", "simulate", "shrink", "trace", "bench")) {
            assertTrue(usage.contains("\n  " + command + " "), command + " is listed: " + usage);
        }
    }

    @Test
    void everyCommandsSummaryIsAWholeSentence() {
        List<String> unfinished = new ArrayList<>();
        collect(new CommandLine(new KvLedgerCli()), "kvledger", unfinished);
        assertEquals(List.of(), unfinished, "summaries (the first description line) that end mid-sentence");
    }

    private static void collect(CommandLine command, String name, List<String> unfinished) {
        String[] description = command.getCommandSpec().usageMessage().description();
        String summary = description.length == 0 ? "" : description[0].strip();
        if (!summary.endsWith(".") && !summary.endsWith(".)")) {
            unfinished.add(name + ": " + summary);
        }
        for (Map.Entry<String, CommandLine> sub : command.getSubcommands().entrySet()) {
            if (!sub.getKey().equals("help")) {
                collect(sub.getValue(), name + " " + sub.getKey(), unfinished);
            }
        }
    }
}
