package io.kvledger.infrastructure.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8LinesTest {

    @Test
    void linesLongerThanTheReadAheadAndCrlfSplitAcrossReadsComeBackWhole() throws IOException {
        String longLine = "x".repeat(200_000) + "é";
        String text = "first\r\n" + longLine + "\r\n\r\nlast without newline";

        List<String> lines = read(new TrickleInputStream(text.getBytes(StandardCharsets.UTF_8)));

        assertEquals(List.of("first", longLine, "", "last without newline"), lines);
    }

    @Test
    void aByteOrderMarkOnTheFirstLineIsDroppedAndNumbersCountPhysicalLines() throws IOException {
        Utf8Lines lines = new Utf8Lines(new ByteArrayInputStream("\uFEFFa\n\nb\n".getBytes(StandardCharsets.UTF_8)));

        assertEquals("a", lines.next());
        assertEquals("", lines.next());
        assertEquals("b", lines.next());
        assertEquals(3, lines.number());
        assertNull(lines.next());
        assertNull(lines.next());
    }

    @Test
    void invalidUtf8NamesItsLine() throws IOException {
        byte[] bytes = {'o', 'k', '\n', (byte) 0xC3, 0x28, '\n'};
        Utf8Lines lines = new Utf8Lines(new TrickleInputStream(bytes));

        lines.next();
        Utf8Lines.InvalidUtf8Exception e = assertThrows(Utf8Lines.InvalidUtf8Exception.class, lines::next);

        assertEquals(2, e.line());
    }

    private static List<String> read(InputStream in) throws IOException {
        Utf8Lines lines = new Utf8Lines(in);
        List<String> all = new ArrayList<>();
        for (String line = lines.next(); line != null; line = lines.next()) {
            all.add(line);
        }
        return all;
    }

    /** Hands out at most three bytes a read, and sometimes none, as a pipe may. */
    private static final class TrickleInputStream extends FilterInputStream {
        private int calls;

        TrickleInputStream(byte[] bytes) {
            super(new ByteArrayInputStream(bytes));
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            calls++;
            return calls % 5 == 0 ? 0 : super.read(buffer, offset, Math.min(length, 1 + calls % 3));
        }
    }
}
