package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The byte cursor's edges: numbers at a long's and an int's limits and just past them, the spellings Jackson must
 * read instead (leading zeros, {@code -0}, fractions, exponents), escapes and bytes that are not printable ASCII,
 * and input cut anywhere: a value that is not whole before the line's end is never taken, whatever the buffer holds
 * after the end. Each text sits in the middle of a larger buffer whose bytes around it would complete it.
 */
class ByteCursorTest {

    private static final byte[] TRUE = ByteCursor.ascii("true");

    @Test
    void integersUpToALongsLimitsAreTakenWithTheByteAfterThem() {
        assertEquals(0L, number("0,"));
        assertEquals(7L, number("7]"));
        assertEquals(-1L, number("-1}"));
        assertEquals(Long.MAX_VALUE, number(Long.MAX_VALUE + ","));
        assertEquals(-Long.MAX_VALUE, number(-Long.MAX_VALUE + ","));
        assertEquals(1_000_000_000_000_000_000L, number("1000000000000000000,"));
        ByteCursor cursor = on("12, 34]");
        assertTrue(cursor.readNumber());
        assertTrue(cursor.skip(ByteCursor.ascii(", ")), "the cursor stands on the byte after the number");
        assertTrue(cursor.readNumber());
        assertEquals(34L, cursor.number());
        assertTrue(cursor.atLast((byte) ']'));
    }

    @Test
    void numbersJacksonMustReadAreDeclinedAndTheCursorStaysPut() {
        for (String text : new String[] {"9223372036854775808,", "-9223372036854775808,", "92233720368547758070,",
                "99999999999999999999,", "18446744073709551616,", "00,", "01,", "-01,", "-0,", "-,", "+1,", ",", "1.0,",
                "1e2,", "1E2,", "1 ,", "1x,", "0x1,", "\"1\",", "null,", "1", "-", "", "12345"}) {
            ByteCursor cursor = on(text);
            assertFalse(cursor.readNumber(), text);
            assertTrue(cursor.skip(ByteCursor.ascii(text)), "nothing skipped: " + text);
        }
    }

    @Test
    void anIntIsWithinJavasInt() {
        ByteCursor cursor = on(Integer.MAX_VALUE + ", " + Integer.MIN_VALUE + "]");
        assertTrue(cursor.readInt());
        assertEquals(Integer.MAX_VALUE, cursor.number());
        cursor.skip(ByteCursor.ascii(", "));
        assertTrue(cursor.readInt());
        assertEquals(Integer.MIN_VALUE, cursor.number());
        assertFalse(on((Integer.MAX_VALUE + 1L) + ",").readInt(), "2^31");
        assertFalse(on((Integer.MIN_VALUE - 1L) + ",").readInt(), "-2^31 - 1");
        assertFalse(on(Long.MAX_VALUE + ",").readInt());
    }

    @Test
    void printableAsciiStringsAreTakenAndEscapesOrOtherBytesAreLeftToJackson() {
        assertEquals("req-17", string("\"req-17\","));
        assertEquals("", string("\"\","));
        assertEquals(" ~!#$%&'()*+/:;<=>?@[]^_`{|}", string("\" ~!#$%&'()*+/:;<=>?@[]^_`{|}\"}"));
        assertEquals("a\u007f", string("\"a\u007f\","), "DEL is not a control character JSON escapes");
        for (String text : new String[] {"\"r\\u0065q\",", "\"r\\\"\",", "\"r\\\\\",", "\"r\\n\",", "\"a\tb\",", "\"a\nb\",",
                "\"a\u0000b\",", "\"a\u001fb\",", "\"\u00e9\",", "\"\u20ac\",", "\"\ud83d\ude00\",", "r\",", "'r',", "null,"}) {
            ByteCursor cursor = on(text);
            assertNull(cursor.readString(), text);
            assertTrue(cursor.skip(text.getBytes(StandardCharsets.UTF_8)), "nothing skipped: " + text);
        }
        RecentStrings strings = new RecentStrings();
        assertSame(on(strings, "\"key-1\"").readString(), on(strings, "\"key-1\"").readString(), "ids through the recent strings");
    }

    @Test
    void aStringPastTheLongestIsLeftToJackson() {
        String longest = "x".repeat(ByteCursor.LONGEST_STRING - 1);
        assertEquals(longest, string("\"" + longest + "\","));
        assertNull(on("\"" + longest + "x\",").readString());
    }

    @Test
    void literalsAndChoicesAreWholeValues() {
        assertTrue(on("true,").skipLiteral(TRUE));
        assertTrue(on("null]").skipNull());
        for (String text : new String[] {"tru", "truex,", "true ,", "TRUE,", "true", "nul,", "nullx,"}) {
            ByteCursor cursor = on(text);
            assertFalse(cursor.skipLiteral(TRUE) || cursor.skipNull(), text);
        }
        byte[][] choices = {ByteCursor.ascii("LENGTH"), ByteCursor.ascii("LENGTH_CAP"), ByteCursor.ascii("STOP")};
        assertEquals(1, on("\"LENGTH_CAP\"}").readChoice(choices));
        assertEquals(0, on("\"LENGTH\"}").readChoice(choices));
        assertEquals(2, on("\"STOP\"").readChoice(choices));
        for (String text : new String[] {"\"LENGT\"", "\"LENGTHS\"", "\"length\"", "LENGTH", "\"STOP", "\"ST\\u004fP\""}) {
            assertEquals(-1, on(text).readChoice(choices), text);
        }
    }

    @Test
    void namesAreMatchedWholeUpToTheirClosingQuote() {
        byte[][] names = {ByteCursor.ascii("BlocksFreed"), ByteCursor.ascii("BlocksFreedAll"), ByteCursor.ascii("Stored")};
        ByteCursor cursor = on("BlocksFreedAll\", ");
        assertEquals(1, cursor.skipName(names, 0));
        assertTrue(cursor.skip(ByteCursor.ascii(", ")), "past the closing quote");
        assertEquals(2, on("Stored\"").skipName(names, 1));
        assertEquals(0, on("BlocksFreed\"").skipName(names, 2));
        for (String text : new String[] {"BlocksFree\"", "Blocks\\u0046reed\"", "Stored", "\"", "Stor\""}) {
            assertEquals(-1, on(text).skipName(names, 0), text);
        }
    }

    @Test
    void arraysHaveTheWritersSpacingAndDeclineAnythingElse() {
        ByteCursor empty = on("[]}");
        assertFalse(empty.openArray(), "empty, and skipped");
        assertTrue(empty.atLast((byte) '}'));
        ByteCursor two = on("[1, 2]}");
        assertTrue(two.openArray());
        assertTrue(two.readInt());
        assertTrue(two.nextElement());
        assertTrue(two.readInt());
        assertFalse(two.nextElement());
        assertTrue(two.atLast((byte) '}'));
        assertThrows(ByteCursor.Decline.class, () -> on("1}").openArray());
        assertThrows(ByteCursor.Decline.class, () -> on("").openArray());
        for (String text : new String[] {"[1,2]", "[1 , 2]", "[1,", "[1", "[1 2]"}) {
            ByteCursor cursor = on(text);
            assertTrue(cursor.openArray());
            cursor.readInt();
            assertThrows(ByteCursor.Decline.class, cursor::nextElement, text);
        }
    }

    @Test
    void skipTakesExactlyTheExpectedBytesBeforeTheEnd() {
        byte[] seq = ByteCursor.ascii("{\"seq\": ");
        String line = "{\"seq\": 12}";
        assertTrue(on(line).skip(seq));
        for (int cut = 0; cut < seq.length; cut++) {
            byte[] buffer = line.getBytes(StandardCharsets.US_ASCII);
            ByteCursor cursor = new ByteCursor(new RecentStrings());
            cursor.start(buffer, 0, cut); // the buffer goes on with the rest of the expected bytes
            assertFalse(cursor.skip(seq), "cut at " + cut);
        }
        assertFalse(on("{\"seq\":  12}").skip(ByteCursor.ascii("{\"seq\": 1")));
        assertFalse(on("{\"Seq\": 12}").skip(seq));
    }

    @Test
    void inputCutAnywhereIsNeverReadPastItsEnd() {
        String whole = "\"key-7\", 123456789, true, null, [3, 4]";
        for (int cut = 0; cut < whole.length(); cut++) {
            String text = whole.substring(0, cut);
            // The buffer goes on with what the cut removed: a cursor that read past the line's end would find it.
            byte[] buffer = ("{{{" + whole + "}").getBytes(StandardCharsets.US_ASCII);
            ByteCursor cursor = new ByteCursor(new RecentStrings());
            cursor.start(buffer, 3, text.length());
            String key = cursor.readString();
            if (cut < "\"key-7\"".length()) {
                assertNull(key, text);
                continue;
            }
            assertEquals("key-7", key);
            boolean number = cursor.skip(ByteCursor.ascii(", ")) && cursor.readNumber();
            assertFalse(number && cut < "\"key-7\", 123456789,".length(), "a number is whole only before its end: " + text);
            boolean literal = number && cursor.skip(ByteCursor.ascii(", ")) && cursor.skipLiteral(TRUE);
            assertFalse(literal && cut < "\"key-7\", 123456789, true,".length(), text);
            boolean nil = literal && cursor.skip(ByteCursor.ascii(", ")) && cursor.skipNull();
            assertFalse(nil && cut < "\"key-7\", 123456789, true, null,".length(), text);
            if (nil && cursor.skip(ByteCursor.ascii(", "))) {
                boolean read = false;
                try {
                    read = cursor.openArray() && cursor.readInt() && cursor.nextElement() && cursor.readInt()
                            && !cursor.nextElement();
                } catch (ByteCursor.Decline declined) {
                    // cut inside the array
                }
                assertFalse(read, "the array is never closed before the end: " + text);
            }
        }
    }

    private static long number(String text) {
        ByteCursor cursor = on(text);
        assertTrue(cursor.readNumber(), text);
        assertTrue(cursor.atLast((byte) text.charAt(text.length() - 1)), "the cursor stands on the byte after it: " + text);
        return cursor.number();
    }

    private static String string(String text) {
        ByteCursor cursor = on(text);
        String read = cursor.readString();
        assertTrue(read == null || cursor.atLast((byte) text.charAt(text.length() - 1)), text);
        return read;
    }

    private static ByteCursor on(String text) {
        return on(new RecentStrings(), text);
    }

    /**
     * A cursor on {@code text} in the middle of a buffer: digits, a closing quote and closing brackets before and after,
     * so a cursor that reads outside the line takes a value it must not.
     */
    private static ByteCursor on(RecentStrings strings, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[bytes.length + 16];
        Arrays.fill(buffer, (byte) '0');
        buffer[7] = '"';
        System.arraycopy(bytes, 0, buffer, 8, bytes.length);
        byte[] after = "0\"]}, 1".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(after, 0, buffer, 8 + bytes.length, after.length);
        ByteCursor cursor = new ByteCursor(strings);
        cursor.start(buffer, 8, bytes.length);
        return cursor;
    }
}
