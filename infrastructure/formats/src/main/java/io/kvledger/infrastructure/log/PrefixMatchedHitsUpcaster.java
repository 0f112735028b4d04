package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Revision 0 of {@code PrefixMatched} named its chunk list {@code hits}; revision 1 calls it
 * {@code hitChunks}, as the contract does.
 */
final class PrefixMatchedHitsUpcaster implements EventUpcaster {

    @Override
    public boolean canUpcast(String type, String revision) {
        return "PrefixMatched".equals(type) && "0".equals(revision);
    }

    @Override
    public ObjectNode upcast(ObjectNode line) {
        if (line.has("hits") && !line.has("hitChunks")) {
            line.set("hitChunks", line.remove("hits"));
        }
        return line;
    }

    @Override
    public String targetRevision() {
        return "1";
    }
}
