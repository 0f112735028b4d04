package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ids read again are the same {@code String}, with the text the parser read, whatever the slot they share;
 * a string that is not well-formed Unicode is refused every time, never served from the table.
 */
class RecentStringsTest {

    private static final JsonFactory JSON = new JsonFactory();

    @Test
    void anIdReadAgainIsTheSameStringWithTheSameText() throws IOException {
        RecentStrings strings = new RecentStrings();
        List<String> first = read(strings, "[\"req-1\", \"req-2\", \"be56930960e4e8b8637300d6f1b04888\"]");
        List<String> again = read(strings, "[\"req-2\", \"req-1\", \"be56930960e4e8b8637300d6f1b04888\"]");
        assertEquals(List.of("req-1", "req-2", "be56930960e4e8b8637300d6f1b04888"), first);
        assertSame(first.get(0), again.get(1));
        assertSame(first.get(1), again.get(0));
        assertSame(first.get(2), again.get(2));
    }

    @Test
    void manyIdsSharingSlotsKeepTheirOwnText() throws IOException {
        RecentStrings strings = new RecentStrings();
        StringBuilder json = new StringBuilder("[");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            String id = "r-" + i + (i % 3 == 0 ? "\u00e9" : "") + (i % 7 == 0 ? "\u20ac" : "");
            expected.add(id);
            json.append(i == 0 ? "" : ",").append('"').append(id).append('"');
        }
        String text = json.append(']').toString();
        assertEquals(expected, read(strings, text));
        List<String> again = read(strings, text);
        assertEquals(expected, again);
        assertNotSame(read(strings, "[\"r-0\u00e9\u20ac\"]").get(0), read(new RecentStrings(), "[\"r-0\u00e9\u20ac\"]").get(0));
    }

    @Test
    void aLongStringIsReadButNotKept() throws IOException {
        RecentStrings strings = new RecentStrings();
        String longText = "x".repeat(257);
        List<String> twice = read(strings, "[\"" + longText + "\", \"" + longText + "\"]");
        assertEquals(List.of(longText, longText), twice);
        assertNotSame(twice.get(0), twice.get(1));
        String kept = "y".repeat(256);
        List<String> keptTwice = read(strings, "[\"" + kept + "\", \"" + kept + "\"]");
        assertSame(keptTwice.get(0), keptTwice.get(1));
    }

    @Test
    void aLoneSurrogateIsRefusedEachTime() throws IOException {
        RecentStrings strings = new RecentStrings();
        assertEquals(List.of("\ud83d\ude00"), read(strings, "[\"\\ud83d\\ude00\"]"));
        List<String> lone = read(strings, "[\"\\ud83d\", \"\\ud83d\"]");
        assertNull(lone.get(0));
        assertNull(lone.get(1));
    }

    private static List<String> read(RecentStrings strings, String json) throws IOException {
        List<String> values = new ArrayList<>();
        try (JsonParser parser = JSON.createParser(json.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            parser.nextToken();
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                values.add(strings.of(parser));
            }
        }
        return values;
    }
}
