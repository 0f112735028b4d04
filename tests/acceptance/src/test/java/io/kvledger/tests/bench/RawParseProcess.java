package io.kvledger.tests.bench;

import io.kvledger.infrastructure.log.RawParse;
import java.nio.file.Path;

/**
 * {@code kvledger bench}'s raw parse as a process of its own: the floor of the log tools' whole-process
 * targets, so a tool's {@code /usr/bin/time} can be set beside it (docs/performance.md).
 *
 * <pre>java -Xmx256m -cp infrastructure/cli/target/kvledger.jar:tests/acceptance/target/test-classes \
 *     io.kvledger.tests.bench.RawParseProcess LOG</pre>
 */
public final class RawParseProcess {

    private RawParseProcess() {
    }

    public static void main(String[] args) throws Exception {
        long started = System.nanoTime();
        long tokens = RawParse.tokens(Path.of(args[0]));
        System.out.printf("%d tokens in %.3f s%n", tokens, (System.nanoTime() - started) / 1e9);
    }
}
