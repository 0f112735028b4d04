package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --version} prints the version Maven built the module as, not a literal in the source. */
class VersionCommandTest {

    @Test
    void printsTheProjectVersionOfTheBuild() {
        String built = System.getProperty("kvledger.version");
        assertFalse(built == null || built.isBlank() || built.contains("${"), "the build passes kvledger.version: " + built);

        CliRun run = CliRun.of("--version");

        assertEquals(0, run.exit(), run.stderr());
        assertEquals(List.of("kvledger " + built), run.stdout());
    }
}
