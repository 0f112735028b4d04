package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The string policy: a lone UTF-16 surrogate is found where it is, and written only as its escape. */
class UnicodeTextTest {

    private static final String PAIR = "\uD83D\uDE00"; // one code point, two chars

    @Test
    void aLoneSurrogateIsFoundAtItsIndexAndAPairIsNotOne() {
        assertEquals(-1, UnicodeText.loneSurrogateAt(""));
        assertEquals(-1, UnicodeText.loneSurrogateAt("abc"));
        assertEquals(-1, UnicodeText.loneSurrogateAt(PAIR + "x" + PAIR));
        assertEquals(1, UnicodeText.loneSurrogateAt("a\uD800b"));
        assertEquals(1, UnicodeText.loneSurrogateAt("a\uDC00"));
        assertEquals(0, UnicodeText.loneSurrogateAt("\uD800"), "a high surrogate at the very end");
        assertEquals(0, UnicodeText.loneSurrogateAt("\uDE00\uD83D"), "low before high is no pair");
        assertEquals(3, UnicodeText.loneSurrogateAt("x" + PAIR + "\uD800" + PAIR));
        assertEquals(3, UnicodeText.loneSurrogateAt("x" + PAIR + "\uDC00"));
    }

    @Test
    void wellFormedMeansNoLoneSurrogateAndNullIsNoText() {
        assertTrue(UnicodeText.isWellFormed(null));
        assertTrue(UnicodeText.isWellFormed("r-1" + PAIR));
        assertFalse(UnicodeText.isWellFormed("r\uD800"));
        assertFalse(UnicodeText.isWellFormed("\uDFFF"));
    }

    @Test
    void onlyLoneSurrogatesAreEscapedAndPairsAreKept() {
        assertNull(UnicodeText.escapeLoneSurrogates(null));
        String clean = "r-1" + PAIR;
        assertSame(clean, UnicodeText.escapeLoneSurrogates(clean));
        assertEquals("a\\ud800b" + PAIR, UnicodeText.escapeLoneSurrogates("a\uD800b" + PAIR));
        assertEquals("\\udc00\\ud800", UnicodeText.escapeLoneSurrogates("\uDC00\uD800"));
        assertEquals(PAIR + "\\ud83d", UnicodeText.escapeLoneSurrogates(PAIR + "\uD83D"));
    }

    @Test
    void theProblemNamesTheFieldTheSurrogateItsIndexAndThePrintableText() {
        assertEquals("requestId is not valid Unicode: a lone UTF-16 surrogate \\ud800 at index 2 has no UTF-8 form (r-\\ud800x)",
                UnicodeText.problem("requestId", "r-\uD800x"));
    }
}
