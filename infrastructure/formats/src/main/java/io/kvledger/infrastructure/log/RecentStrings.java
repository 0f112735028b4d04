package io.kvledger.infrastructure.log;

import io.kvledger.domain.UnicodeText;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/**
 * The strings of ids and keys read lately, so that a line naming a request or a chunk already seen gets
 * the very same {@code String}: its hash is computed once, on the thread that parses, and the fold's maps
 * compare it by identity. A fixed table indexed by the text's hash (a newer string takes its slot), so
 * memory is flat whatever the log's length. Only well-formed strings are kept; a string found in the
 * table was checked when it was put there. Not thread-safe: one per reader.
 */
final class RecentStrings {

    private static final int SLOTS = 1 << 13;

    private final String[] slots = new String[SLOTS];

    /**
     * The string value the parser is on, or {@code null} when it is not well-formed Unicode (a lone
     * surrogate): the same text as {@code parser.getText()}.
     */
    String of(JsonParser parser) throws IOException {
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int length = parser.getTextLength();
        int hash = 0;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + chars[offset + i]; // String.hashCode's own formula
        }
        int slot = (hash ^ (hash >>> 13)) & (SLOTS - 1);
        String held = slots[slot];
        if (held != null && held.length() == length && held.hashCode() == hash && same(held, chars, offset)) {
            return held;
        }
        String made = new String(chars, offset, length);
        if (!UnicodeText.isWellFormed(made)) {
            return null;
        }
        made.hashCode(); // cached in the string, off the folding thread
        slots[slot] = made;
        return made;
    }

    private static boolean same(String held, char[] chars, int offset) {
        for (int i = 0; i < held.length(); i++) {
            if (held.charAt(i) != chars[offset + i]) {
                return false;
            }
        }
        return true;
    }
}
