package io.kvledger.tests.cli;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** One in-process run of the command line: exit code, stdout lines, stderr. */
record CliRun(int exit, List<String> stdout, String stderr) {

    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        String text = out.toString(StandardCharsets.UTF_8);
        List<String> lines = text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
        return new CliRun(exit, lines, err.toString(StandardCharsets.UTF_8));
    }
}
