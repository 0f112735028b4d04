package io.kvledger.infrastructure.serve;

/** Constants of the serve protocol (docs/serve-protocol.md). */
public final class ServeProtocol {

    /** The protocol version this server speaks; a hello naming another is refused. */
    public static final int VERSION = 1;

    /** The longest request line accepted: a step of many thousands of commands fits easily. */
    public static final int MAX_LINE_BYTES = 64 * 1024 * 1024;

    private ServeProtocol() {
    }
}
