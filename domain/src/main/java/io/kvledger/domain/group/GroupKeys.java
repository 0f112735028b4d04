package io.kvledger.domain.group;

/**
 * The group a chunk key names (contract section 7.1: a key names (group, prefix)). The engine's key of a
 * chunk of group {@code g > 0} is the prefix hash followed by {@code /g<g>}; group 0's is the hash alone
 * ({@code RequestState.key}). Tools that count by group (trace, metrics, KV events, fleet) read it back
 * here instead of parsing keys each their own way.
 */
public final class GroupKeys {

    private static final String MARK = "/g";

    private GroupKeys() {
    }

    /**
     * The key of group {@code g}'s chunk whose prefix hash is {@code hash}: the hash itself for group 0, else the hash
     * and {@code /g<g>}. By {@code String.concat}, not {@code +}, whose method handles C1 calls one by one.
     */
    public static String of(String hash, int g) {
        if (g == 0) {
            return hash;
        }
        return hash.concat(mark(g));
    }

    /** The marks of the first groups are constants: a key is made on every offer, store and look-up of a group. */
    private static String mark(int g) {
        return switch (g) {
            case 1 -> "/g1";
            case 2 -> "/g2";
            case 3 -> "/g3";
            case 4 -> "/g4";
            default -> MARK + g;
        };
    }

    /**
     * Where {@code key}'s group mark ({@code /g} and digits, at its end) begins, or the key's length when it
     * has none: a tool that shortens a key keeps the mark, which tells the same tokens' keys of two groups apart.
     */
    public static int markStart(String key) {
        int mark = key.lastIndexOf(MARK);
        if (mark < 0 || mark + MARK.length() == key.length()) {
            return key.length();
        }
        for (int i = mark + MARK.length(); i < key.length(); i++) {
            if (key.charAt(i) < '0' || key.charAt(i) > '9') {
                return key.length();
            }
        }
        return mark;
    }

    /**
     * The group of {@code key} among {@code groups} ({@link Integer#MAX_VALUE} when the count is not known); 0 for
     * a key without the mark or naming no such group.
     */
    public static int groupOf(String key, int groups) {
        if (groups <= 1) {
            return 0;
        }
        int mark = key.lastIndexOf(MARK);
        if (mark < 0 || mark + MARK.length() == key.length()) {
            return 0;
        }
        int digits = key.length() - mark - MARK.length();
        if (digits > 9) {
            return 0;
        }
        int g = 0;
        for (int i = mark + MARK.length(); i < key.length(); i++) {
            char digit = key.charAt(i);
            if (digit < '0' || digit > '9') {
                return 0;
            }
            g = g * 10 + (digit - '0');
        }
        return g < groups ? g : 0;
    }
}
