package io.kvledger.domain.config;

/** The attention type of a KV cache group (contract section 7.1). */
public enum GroupKind {
    FULL,
    SLIDING_WINDOW
}
