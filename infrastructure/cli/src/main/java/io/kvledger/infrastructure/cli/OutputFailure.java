package io.kvledger.infrastructure.cli;

import java.io.IOException;

/**
 * A write to an output failed (a full disk, a closed pipe, an unwritable path). Unchecked, so that it
 * passes through every writer on the way ({@code PrintWriter} would otherwise swallow it) to the one
 * place that turns it into a message and an exit code.
 */
final class OutputFailure extends RuntimeException {

    private final String target;

    OutputFailure(String target, IOException cause) {
        super("cannot write " + target + ": " + reason(cause), cause);
        this.target = target;
    }

    String target() {
        return target;
    }

    /** The reader at the other end of a pipe went away (e.g. {@code | head -1}): not an error of ours. */
    boolean brokenPipe() {
        String message = getCause().getMessage();
        return message != null && (message.contains("Broken pipe") || message.contains("Stream closed"));
    }

    static String reason(IOException e) {
        if (e instanceof java.nio.file.FileAlreadyExistsException exists) {
            return exists.getFile() + " is not a directory"; // a parent on the way is a file
        }
        if (e instanceof java.nio.file.NotDirectoryException notDirectory) {
            return notDirectory.getFile() + " is not a directory";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        if (e instanceof java.nio.charset.CharacterCodingException) {
            return "a string that is not valid Unicode cannot be written as UTF-8";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
