package io.kvledger.infrastructure.store;

/**
 * What opening a store cut from the end of its file: the bytes of an append the process did not
 * finish (it was killed, or the machine lost power, while writing). Nothing an append acknowledged is
 * ever cut: an append returns only after all its bytes are written.
 *
 * @param bytesCut  bytes removed from the end of the file; 0 when the file was whole
 * @param firstLine the physical line number of the first line cut (from 1); 0 when nothing was cut
 * @param linesCut  the lines cut, a partial last line included
 * @param reason    why, for the log and the operator; empty when nothing was cut
 */
public record RecoveryReport(long bytesCut, long firstLine, long linesCut, String reason) {

    public static final RecoveryReport CLEAN = new RecoveryReport(0, 0, 0, "");

    public boolean recovered() {
        return bytesCut > 0;
    }

    @Override
    public String toString() {
        return recovered()
                ? "cut " + bytesCut + " bytes (" + linesCut + " line(s) from line " + firstLine + "): " + reason
                : "clean";
    }
}
