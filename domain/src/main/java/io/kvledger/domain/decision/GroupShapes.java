package io.kvledger.domain.decision;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.group.PerGroup;

/** Field checks of per-group fields (contract section 7.2). */
final class GroupShapes {

    private GroupShapes() {
    }

    /** A per-group field holds one list per group. */
    static void requireGroupCount(String field, PerGroup<?> value, EngineConfig config) {
        if (value.groupCount() != config.groupCount()) {
            throw Rejection.invalidArgument(field + " must hold " + config.groupCount() + " lists (one per group), held "
                    + value.groupCount());
        }
    }
}
