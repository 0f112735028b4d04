package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The floor the log tools are measured against ({@code kvledger bench}, docs/performance.md): a raw Jackson
 * streaming parse of a file, every token read, numbers decoded and strings made, nothing checked or kept.
 */
public final class RawParse {

    private RawParse() {
    }

    /** The tokens of {@code file}; the least any reader of it must do. */
    public static long tokens(Path file) throws IOException {
        long tokens = 0;
        long sink = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
             JsonParser parser = new JsonFactory().createParser(in)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                tokens++;
                switch (token) {
                    case FIELD_NAME -> sink += parser.currentName().length();
                    case VALUE_STRING -> sink += parser.getText().length();
                    case VALUE_NUMBER_INT -> sink += parser.getNumberValue().longValue();
                    case VALUE_NUMBER_FLOAT -> sink += (long) parser.getDoubleValue();
                    default -> sink++;
                }
            }
        }
        return sink == Long.MIN_VALUE ? -tokens : tokens;
    }
}
