package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reading of a store location, on a real file system (docs/embedded-store.md: a location ending with / is a directory). */
class StoreLocationTest {

    @TempDir
    Path dir;

    @Test
    void aPathEndingWithASlashIsADirectoryWhetherItExistsOrNot() throws Exception {
        StoreLocation missing = StoreLocation.parse(dir + "/new/");
        assertEquals(StoreLocation.Kind.DIRECTORY, missing.kind());
        assertEquals(dir.resolve("new"), missing.path());
        assertFalse(missing.isPlainFile());
        assertEquals("file:" + dir.resolve("new") + "/?fsync=never", missing.opening(FsyncPolicy.NEVER));
        Files.createDirectory(dir.resolve("old"));
        assertEquals(StoreLocation.Kind.DIRECTORY, StoreLocation.parse(dir + "/old/").kind());
    }

    @Test
    void aPlainPathIsAStoreFileAndAnExistingDirectoryWithoutItsSlashIsRefusedWithBothWaysToSayIt() throws Exception {
        StoreLocation file = StoreLocation.parse(dir + "/engine.jsonl");
        assertEquals(StoreLocation.Kind.FILE, file.kind());
        assertTrue(file.isPlainFile());
        assertEquals("file:" + dir.resolve("engine.jsonl") + "?fsync=always", file.opening(FsyncPolicy.ALWAYS));

        Files.createDirectory(dir.resolve("segments"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> StoreLocation.parse(dir + "/segments"));
        assertTrue(refused.getMessage().contains("is a directory"), refused.getMessage());
        assertTrue(refused.getMessage().contains(dir + "/segments/ or file:" + dir.resolve("segments") + "/"),
                refused.getMessage());
        // Reading it cannot put a store in the wrong place: the log tools and export take it as the directory.
        assertEquals(StoreLocation.Kind.DIRECTORY, StoreLocation.parseForReading(dir + "/segments").kind());
    }

    @Test
    void aFileNamedWithATrailingSlashIsRefused() throws Exception {
        Files.writeString(dir.resolve("engine.jsonl"), "");
        for (String written : new String[] {dir + "/engine.jsonl/", "file:" + dir + "/engine.jsonl/"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse(written));
            assertTrue(refused.getMessage().contains("is a file"), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> StoreLocation.parseForReading(written));
        }
    }

    @Test
    void aLocationWithASchemeIsReadByItsSchemeNotAsAFileName() throws Exception {
        StoreLocation database = StoreLocation.parse("jdbc:postgresql://127.0.0.1:1/kv?user=u");
        assertEquals(StoreLocation.Kind.OTHER, database.kind());
        assertNull(database.path());
        assertEquals("jdbc:postgresql://127.0.0.1:1/kv?user=u", database.opening(FsyncPolicy.ALWAYS));

        StoreLocation directory = StoreLocation.parse("file:" + dir + "/segments/");
        assertEquals(StoreLocation.Kind.DIRECTORY, directory.kind());
        assertEquals(dir.resolve("segments"), directory.path());
        assertEquals(StoreLocation.Kind.DIRECTORY, StoreLocation.parse("file:" + dir + "/rolled?segmentBytes=65536").kind());
        assertEquals(StoreLocation.Kind.DIRECTORY, StoreLocation.parse("file://" + dir + "/segments/").kind());
        StoreLocation file = StoreLocation.parse("file:" + dir + "/engine.jsonl?fsync=never");
        assertEquals(StoreLocation.Kind.FILE, file.kind());
        assertFalse(file.isPlainFile(), "opened through the file: provider, with its own options");
        assertEquals(dir.resolve("engine.jsonl"), file.path());

        assertEquals(StoreLocation.Kind.FILE, StoreLocation.parse("C:\\\\stores\\\\engine.jsonl").kind(), "a drive, not a scheme");
        assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse(""));
        assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse("file:"));
    }
}
