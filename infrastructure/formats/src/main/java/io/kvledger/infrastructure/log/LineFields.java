package io.kvledger.infrastructure.log;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/**
 * The checked fields of one line, however it was read: from a tree ({@link TreeFields}) or straight
 * from the parser's tokens ({@link StreamedFields}). One set of decoders ({@link EventDecoders}) reads
 * both, so both readers build the same event from the same line.
 */
interface LineFields {

    int i(String field);

    long l(String field);

    boolean b(String field);

    String s(String field);

    /** Whether the field is present and JSON {@code null}. */
    boolean isNull(String field);

    List<Integer> ints(String field);

    List<Long> longs(String field);

    List<String> strings(String field);

    /** An optional integer field checked by the schema (contract 9.1's counts); {@code null} when absent. */
    Integer optionalInt(String field);

    /** An optional boolean field checked by the schema; {@code null} when absent. */
    Boolean optionalBoolean(String field);

    /** An optional string field, {@code null} when absent or not a string (a non-string is an extra field like any other). */
    String optionalString(String field);

    /** An optional id as given, the way data binding reads an {@code Object}; {@code null} when absent or null. */
    Object id(String field);

    /** A per-group integer field (contract 7.2): the flat list for one group; {@link TreeFields} reads G lists. */
    default PerGroup<Integer> groupInts(String field) {
        return PerGroup.single(ints(field));
    }

    /** A per-group string field (contract 7.2). */
    default PerGroup<String> groupStrings(String field) {
        return PerGroup.single(strings(field));
    }
}
