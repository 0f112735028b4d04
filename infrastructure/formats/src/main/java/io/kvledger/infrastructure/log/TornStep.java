package io.kvledger.infrastructure.log;

/**
 * The end of a store that a reader of whole steps left out ({@link EventLogReader#wholeSteps}): the lines of
 * a step whose write was not finished, as opening the store cuts them.
 *
 * @param firstLine the step's first line
 * @param lastLine  the last line read of it
 * @param firstSeq  the seq of its first line, or 0 when that line could not be read
 * @param reason    what was missing, e.g. "its append announced more lines than came"
 */
public record TornStep(long firstLine, long lastLine, long firstSeq, String reason) {

    /** One line for the user, e.g. "left out a torn step at the end, lines 2 to 100 (from seq 2): ...". */
    public String describe() {
        String lines = firstLine == lastLine ? "line " + firstLine : "lines " + firstLine + " to " + lastLine;
        return "left out the torn step at its end, " + lines + (firstSeq > 0 ? " (from seq " + firstSeq + ")" : "")
                + ": " + reason + "; a store opened for appending cuts it the same way";
    }
}
