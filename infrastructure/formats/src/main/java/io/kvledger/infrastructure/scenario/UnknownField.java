package io.kvledger.infrastructure.scenario;

import io.kvledger.domain.UnicodeText;
import io.kvledger.infrastructure.json.EventJson;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A field a command line gives that its command does not know. The contract ignores it (section 4, "unknown
 * extra fields are ignored"), so it changes no output; but a misspelt {@code "sucess": false} would complete
 * a job as a success without a word, so the reader reports it, with the known name it is closest to.
 *
 * @param line       the scenario's line number
 * @param cmd        the command's name
 * @param field      the field as written
 * @param suggestion a known field of the command the name is a likely misspelling of, if any
 */
public record UnknownField(long line, String cmd, String field, Optional<String> suggestion) {

    /** {@code line 6: CompleteTransfer has no field "sucess" (ignored; did you mean "success"?)}. */
    public String message() {
        return "line " + line + ": " + cmd + " has no field " + EventJson.quoted(UnicodeText.escapeLoneSurrogates(field))
                + suggestion.map(known -> " (ignored; did you mean " + EventJson.quoted(known) + "?)").orElse(" (ignored)");
    }

    static UnknownField of(long line, String cmd, String field, List<String> known) {
        return new UnknownField(line, cmd, field, closest(field, known));
    }

    /**
     * The known name {@code field} most likely misspells: equal but for case, or within an edit distance of
     * one for every four characters (at least one). Hand-written: a dozen lines against a dependency for
     * every host that embeds the formats.
     */
    static Optional<String> closest(String field, List<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : known) {
            if (name.equalsIgnoreCase(field)) {
                return Optional.of(name);
            }
            int distance = distance(field.toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT));
            if (distance <= Math.max(1, name.length() / 4) && distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Levenshtein's distance (insertions, deletions, substitutions) between two short names. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
