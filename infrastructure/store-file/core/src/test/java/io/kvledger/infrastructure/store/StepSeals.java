package io.kvledger.infrastructure.store;

import java.nio.charset.StandardCharsets;

/** For tests that hand-edit a store: a one-line step sealed with its checksum, as the store writes it. */
final class StepSeals {

    private StepSeals() {
    }

    /** {@code line} (a whole one-line step, its old checksum if any dropped) ending with its step checksum. */
    static String seal(String line) {
        String open = line.replaceAll(", \"" + StepChecksums.FIELD + "\": \\d+}$", "}");
        String covered = open.substring(0, open.length() - 1);
        byte[] bytes = covered.getBytes(StandardCharsets.UTF_8);
        return covered + ", \"" + StepChecksums.FIELD + "\": " + StepChecksums.of(bytes, 0, bytes.length) + "}";
    }
}
