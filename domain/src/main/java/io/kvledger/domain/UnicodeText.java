package io.kvledger.domain;

/**
 * The string policy of every format: a string must be well-formed Unicode to be accepted, because a
 * lone UTF-16 surrogate (valid in a JSON escape, {@code "\ud800"}) has no UTF-8 form and would be
 * changed or refused by the first writer it reaches. So such a string is refused where it enters,
 * never changed on the way.
 */
public final class UnicodeText {

    private UnicodeText() {
    }

    /** The index of the first lone surrogate in {@code text}, or -1 when it is well-formed. */
    public static int loneSurrogateAt(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return i;
            }
            if (Character.isLowSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    public static boolean isWellFormed(String text) {
        return text == null || loneSurrogateAt(text) < 0;
    }

    /** Why {@code text} is refused, naming the field: for a message, itself well-formed. */
    public static String problem(String field, String text) {
        int at = loneSurrogateAt(text);
        return field + " is not valid Unicode: a lone UTF-16 surrogate " + escape(text.charAt(at)) + " at index " + at
                + " has no UTF-8 form (" + escapeLoneSurrogates(text) + ")";
    }

    /** {@code text} with each lone surrogate written as its escape {@code \\uXXXX}: safe to print anywhere. */
    public static String escapeLoneSurrogates(String text) {
        if (text == null || loneSurrogateAt(text) < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append(escape(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String escape(char c) {
        return String.format("\\u%04x", (int) c);
    }
}
