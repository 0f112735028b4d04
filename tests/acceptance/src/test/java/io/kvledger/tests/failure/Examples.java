package io.kvledger.tests.failure;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The shared examples, as files. */
final class Examples {

    private Examples() {
    }

    static String path(String name) {
        return resource("/examples/" + name);
    }

    static String resource(String name) {
        try {
            return Path.of(Examples.class.getResource(name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String prefillDecode() {
        return path("01_prefill_decode.jsonl");
    }

    static String chunkedPrefill() {
        return path("03_chunked_prefill_f2.jsonl");
    }

    static String abortMidPrefill() {
        return path("05_abort_mid_prefill.jsonl");
    }
}
