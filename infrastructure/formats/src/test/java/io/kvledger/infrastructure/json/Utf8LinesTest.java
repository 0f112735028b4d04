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

    /**
     * Lines of every length around the eight-byte words of the newline scan and the 64 KiB read-ahead,
     * ASCII or not, some with a byte that is not UTF-8, read whole or in small reads: the lines, their
     * bytes consumed and the line of the first invalid one are those of a plain split of the bytes.
     */
    @Test
    void randomLinesReadAsAPlainSplitReadsThem() throws IOException {
        for (int seed = 0; seed < 300; seed++) {
            java.util.Random random = new java.util.Random(seed);
            java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
            List<String> expected = new ArrayList<>();
            long invalidAt = 0;
            int count = 1 + random.nextInt(seed % 10 == 0 ? 400 : 40);
            for (int i = 1; i <= count; i++) {
                StringBuilder line = new StringBuilder();
                int length = random.nextInt(8) == 0 ? random.nextInt(70_000) : random.nextInt(40);
                for (int c = 0; c < length; c++) {
                    line.append(random.nextInt(50) == 0 ? (random.nextBoolean() ? '\u00e9' : '\u4e2d') : (char) (' ' + random.nextInt(90)));
                }
                byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
                if (random.nextInt(60) == 0 && bytes.length > 0) {
                    bytes[random.nextInt(bytes.length)] = (byte) 0xFF;
                    if (invalidAt == 0) {
                        invalidAt = i;
                    }
                }
                file.writeBytes(bytes);
                if (random.nextInt(5) == 0) {
                    file.write('\r');
                }
                file.write('\n');
                expected.add(line.toString());
            }
            byte[] bytes = file.toByteArray();
            for (boolean trickle : new boolean[] {false, true}) {
                InputStream in = trickle ? new TrickleInputStream(bytes) : new ByteArrayInputStream(bytes);
                Utf8Lines lines = new Utf8Lines(in);
                List<String> read = new ArrayList<>();
                long failedAt = 0;
                try {
                    for (String line = lines.next(); line != null; line = lines.next()) {
                        read.add(line);
                    }
                    assertEquals(bytes.length, lines.consumed(), "seed " + seed);
                } catch (Utf8Lines.InvalidUtf8Exception e) {
                    failedAt = e.line();
                }
                assertEquals(invalidAt, failedAt, "seed " + seed);
                int whole = invalidAt == 0 ? expected.size() : (int) invalidAt - 1;
                assertEquals(expected.subList(0, whole), read, "seed " + seed);
            }
        }
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
