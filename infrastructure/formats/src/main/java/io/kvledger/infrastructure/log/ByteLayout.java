package io.kvledger.infrastructure.log;

import io.kvledger.domain.event.EngineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A known event type as the writers lay out its bytes (contract spacing, {@link EventSchema}'s field order: the
 * required fields, then the optional ones): its name, each field's {@code , "name": } prefix, kind, allowed enum
 * names and per-group shape, and the decoder that makes its event. {@link #ALL} holds every type {@link ByteLines}
 * reads, {@link #NAMES} their names as bytes, in the same order.
 */
record ByteLayout(String type, List<EventSchema.Field> fields, String[] fieldNames, byte[][] prefixes,
        FieldKind[] kinds, byte[][][] allowedBytes, StreamedFields.Shapes shapes,
        Function<LineFields, EngineEvent> decoder, int requiredCount) {

    static final ByteLayout[] ALL = EventDecoders.types().stream()
            .filter(type -> !"EngineConfigured".equals(type)) // a configuration is checked as a config: the tree path's
            .filter(type -> StreamedFields.fits(EventSchema.requiredFields(type)))
            .sorted() // a fixed order, whatever the decoders' map holds
            .map(ByteLayout::of)
            .toArray(ByteLayout[]::new);

    static final byte[][] NAMES = java.util.Arrays.stream(ALL).map(layout -> ByteCursor.ascii(layout.type()))
            .toArray(byte[][]::new);

    static ByteLayout of(String type) {
        List<EventSchema.Field> fields = new ArrayList<>(EventSchema.requiredFields(type));
        int required = fields.size();
        fields.addAll(EventSchema.optionalFields(type)); // the writer's order: required, then the optional ones
        int n = fields.size();
        String[] names = new String[n];
        byte[][] prefixes = new byte[n][];
        FieldKind[] kinds = new FieldKind[n];
        byte[][][] allowed = new byte[n][][];
        for (int i = 0; i < n; i++) {
            EventSchema.Field field = fields.get(i);
            names[i] = field.name();
            prefixes[i] = ByteCursor.ascii(", \"" + field.name() + "\": ");
            kinds[i] = field.kind();
            allowed[i] = field.allowed().stream().map(ByteCursor::ascii).toArray(byte[][]::new);
        }
        return new ByteLayout(type, List.copyOf(fields), names, prefixes, kinds, allowed,
                StreamedFields.Shapes.of(type, fields), EventDecoders.decoderOf(type), required);
    }
}
