package io.kvledger.infrastructure.log;

/**
 * A check of each line a reader returns, given its bytes as read (a store's step checksums): a reader
 * that checks what a store wrote says so with {@link EventLogReader#checking}.
 */
@FunctionalInterface
public interface LineCheck {

    /**
     * Checks {@code entry}, whose line is {@code length} bytes of {@code bytes} from {@code offset}
     * (without its line end; a shared buffer, valid during the call only).
     *
     * @throws MalformedLogException naming the line when it fails the check
     */
    void check(LogEntry entry, byte[] bytes, int offset, int length) throws MalformedLogException;
}
