package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The chain of every upcaster of the log format, oldest revision first. */
public final class Upcasters {

    private static final List<EventUpcaster> CHAIN = List.of(new PrefixMatchedHitsUpcaster());

    private Upcasters() {
    }

    /** The line raised to the current revision of its type. */
    public static ObjectNode toCurrent(String type, String revision, ObjectNode line) {
        String current = revision;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (EventUpcaster upcaster : CHAIN) {
                if (upcaster.canUpcast(type, current)) {
                    line = upcaster.upcast(line);
                    current = upcaster.targetRevision();
                    changed = true;
                }
            }
        }
        return line;
    }
}
