package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Rewrites a line of an older revision of one type into the next revision, before the line is
 * validated and read. Upcasters chain, so a line written long ago climbs one revision at a time.
 */
public interface EventUpcaster {

    boolean canUpcast(String type, String revision);

    /** The line at the next revision; it may modify and return {@code line}. */
    ObjectNode upcast(ObjectNode line);

    /** The revision {@link #upcast} produces. */
    String targetRevision();
}
