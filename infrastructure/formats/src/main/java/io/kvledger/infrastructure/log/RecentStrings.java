package io.kvledger.infrastructure.log;

import io.kvledger.domain.UnicodeText;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The strings of ids and keys read lately, so that a line naming a request or a chunk already seen gets
 * the very same {@code String}: its hash is computed once, on the thread that parses, and the fold's maps
 * compare it by identity. A fixed table indexed by the text's hash (a newer string takes its slot), so
 * memory is flat whatever the log's length. Only well-formed strings are kept; a string found in the
 * table was checked when it was put there. Not thread-safe: one per reader.
 */
final class RecentStrings {

    private static final int SLOTS = 1 << 13;
    /** Longer strings (a rejection's message) are made each time and not kept: the table stays small. */
    private static final int LONGEST_KEPT = 256;
    /** Up to this length a plain loop compares faster than {@code Arrays.equals} under C1. */
    private static final int SHORT = 16;

    private final String[] slots = new String[SLOTS];
    /** The characters of each slot's string, compared with the parser's by one vectorised range compare. */
    private final char[][] slotChars = new char[SLOTS][];
    /**
     * The bytes of each slot's string when the byte decoder put it there ({@code null} when the parser did): compared
     * with a line's bytes by one range compare, which reads eight bytes at a time where a loop over chars reads one.
     */
    private final byte[][] slotBytes = new byte[SLOTS][];

    /**
     * The string value the parser is on, or {@code null} when it is not well-formed Unicode (a lone
     * surrogate): the same text as {@code parser.getText()}.
     */
    String of(JsonParser parser) throws IOException {
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int length = parser.getTextLength();
        // The slot from the length and the last few characters (ids and keys differ at the end): a short
        // loop, where the string's own hash would read every character of every id on every line.
        int mix = length;
        for (int i = Math.max(0, length - 8); i < length; i++) {
            mix = 31 * mix + chars[offset + i];
        }
        int slot = (mix ^ (mix >>> 13)) & (SLOTS - 1);
        char[] heldChars = slotChars[slot];
        if (heldChars != null && heldChars.length == length && sameFromTheEnd(heldChars, chars, offset)) {
            return slots[slot];
        }
        String made = new String(chars, offset, length);
        if (!UnicodeText.isWellFormed(made)) {
            return null;
        }
        made.hashCode(); // made once and kept in the string, off the folding thread
        if (length > LONGEST_KEPT) {
            return made;
        }
        slots[slot] = made;
        slotChars[slot] = Arrays.copyOfRange(chars, offset, offset + length);
        slotBytes[slot] = null;
        return made;
    }

    /**
     * The string of {@code length} ASCII bytes at {@code offset} (the byte decoder's ids and keys, checked ASCII by
     * its caller, so always well-formed): the same slot and the same {@code String} as {@link #of(JsonParser)} gives
     * for the same text, so both readers of a log hand the fold one canonical string per id.
     */
    String ofAscii(byte[] bytes, int offset, int length) {
        int mix = length;
        for (int i = Math.max(0, length - 8); i < length; i++) {
            mix = 31 * mix + bytes[offset + i];
        }
        int slot = (mix ^ (mix >>> 13)) & (SLOTS - 1);
        byte[] heldBytes = slotBytes[slot];
        if (heldBytes != null) {
            if (heldBytes.length == length && Arrays.equals(heldBytes, 0, length, bytes, offset, offset + length)) {
                return slots[slot];
            }
        } else {
            char[] heldChars = slotChars[slot];
            if (heldChars != null && heldChars.length == length && sameFromTheEnd(heldChars, bytes, offset)) {
                return slots[slot];
            }
        }
        // Every byte is below 0x80, so Latin-1 decodes it as ASCII does, by a plain copy.
        String made = new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
        made.hashCode();
        if (length > LONGEST_KEPT) {
            return made;
        }
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) bytes[offset + i];
        }
        slots[slot] = made;
        slotChars[slot] = chars;
        slotBytes[slot] = Arrays.copyOfRange(bytes, offset, offset + length);
        return made;
    }

    private static boolean sameFromTheEnd(char[] held, byte[] bytes, int offset) {
        for (int i = held.length - 1; i >= 0; i--) {
            if (held[i] != bytes[offset + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code held} is the text at {@code offset}. A short id is compared in a plain loop from the end, where
     * ids differ: under C1 that takes half the time of {@code Arrays.equals} of ranges, whose range checks and
     * vectorised mismatch pay off only from a few dozen characters (a 32-character key: 2.5x faster than the loop).
     */
    private static boolean sameFromTheEnd(char[] held, char[] chars, int offset) {
        if (held.length > SHORT) {
            return Arrays.equals(held, 0, held.length, chars, offset, offset + held.length);
        }
        for (int i = held.length - 1; i >= 0; i--) {
            if (held[i] != chars[offset + i]) {
                return false;
            }
        }
        return true;
    }
}
