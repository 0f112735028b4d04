package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 4: a refused run leaves an existing {@code -o} file as it was; the output is written to a
 * temporary file beside it and renamed over it only at the end, so no half file is ever left.
 */
class RefusedRunKeepsOutputTest {

    @TempDir
    Path dir;

    @Test
    void aRunRefusedByItsStoreLeavesTheOutputAsItWas() throws Exception {
        Path store = dir.resolve("s1.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString()).exit());
        Path output = Files.writeString(dir.resolve("o"), "precious\n");

        Kvledger.Result refused = Kvledger.inProcess("run", Examples.chunkedPrefill(), "--store", store.toString(),
                "-o", output.toString());

        assertEquals(2, refused.exit(), refused.toString());
        assertEquals("precious\n", Files.readString(output));
        assertNoTemporaryFiles();
    }

    @Test
    void aRefusedExportLeavesTheOutputAsItWasAndAnExportReplacesItWhole() throws Exception {
        Path store = dir.resolve("s1.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.prefillDecode(), "--store", store.toString()).exit());
        Path output = Files.writeString(dir.resolve("o"), "precious\n");

        Kvledger.Result refused = Kvledger.inProcess("export", "--store", store.toString(), "--engine", "other",
                "-o", output.toString());

        assertEquals(2, refused.exit(), refused.toString());
        assertEquals("precious\n", Files.readString(output));
        assertNoTemporaryFiles();

        Kvledger.Result exported = Kvledger.inProcess("export", "--store", store.toString(), "-o", output.toString());

        assertEquals(0, exported.exit(), exported.toString());
        assertEquals(Kvledger.inProcess("run", Examples.prefillDecode()).stdout(), Files.readString(output));
        assertNoTemporaryFiles();
    }

    @Test
    void anUnreadableScenarioLeavesTheOutputAsItWas() throws Exception {
        Path output = Files.writeString(dir.resolve("o"), "precious\n");
        Path directory = Files.createDirectory(dir.resolve("not-a-scenario"));

        Kvledger.Result refused = Kvledger.inProcess("run", directory.toString(), "-o", output.toString());

        assertEquals(2, refused.exit(), refused.toString());
        assertEquals("precious\n", Files.readString(output));
        assertNoTemporaryFiles();
    }

    @Test
    void aMalformedLineKeepsTheEventsBeforeItAndReplacesTheOutputWhole() throws Exception {
        Path output = Files.writeString(dir.resolve("o"), "precious\n");
        Path scenario = Files.writeString(dir.resolve("bad.jsonl"), "{\"cmd\": \"ResetCache\"}\nnot json\n");

        Kvledger.Result run = Kvledger.inProcess("run", scenario.toString(), "-o", output.toString());

        assertEquals(2, run.exit(), run.toString());
        List<String> lines = Files.readAllLines(output);
        assertEquals(2, lines.size(), "EngineConfigured and CacheReset: " + lines);
        assertTrue(lines.get(1).contains("\"CacheReset\""), lines.get(1));
        assertNoTemporaryFiles();
    }

    @Test
    void aSuccessfulRunReplacesTheOutputAndASymbolicLinkStaysALink() throws Exception {
        Path real = Files.writeString(dir.resolve("real.jsonl"), "old\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.jsonl"), real);

        Kvledger.Result run = Kvledger.inProcess("run", Examples.prefillDecode(), "-o", link.toString());

        assertEquals(0, run.exit(), run.toString());
        assertTrue(Files.isSymbolicLink(link));
        assertTrue(Files.readString(real).startsWith("{\"seq\": 1, \"type\": \"EngineConfigured\""));
        assertNoTemporaryFiles();
    }

    private void assertNoTemporaryFiles() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> temporary = files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList();
            assertEquals(List.of(), temporary);
        }
    }
}
