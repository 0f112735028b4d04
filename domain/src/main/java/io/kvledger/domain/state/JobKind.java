package io.kvledger.domain.state;

public enum JobKind {
    STORE,
    LOAD
}
