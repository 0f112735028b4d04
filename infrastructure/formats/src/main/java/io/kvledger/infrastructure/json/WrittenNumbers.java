package io.kvledger.infrastructure.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * A parser whose numbers with a fraction or an exponent keep their text as written: the tree's
 * {@code 4.0}, {@code 4e0} or {@code 1E+400} is a {@link Written} decimal, so a message says
 * "was 4.0" where the bare value would read "was 4". Integers are read as the parser reads them.
 */
final class WrittenNumbers extends JsonParserDelegate {

    WrittenNumbers(JsonParser parser) {
        super(parser);
    }

    @Override
    public BigDecimal getDecimalValue() throws IOException {
        BigDecimal value = super.getDecimalValue();
        return currentToken() == JsonToken.VALUE_NUMBER_FLOAT ? new Written(value, getText()) : value;
    }

    /** A decimal with the text it was read from; equal, compared and written as the plain decimal of its value. */
    static final class Written extends BigDecimal {

        private static final long serialVersionUID = 1L;
        private final String text;

        Written(BigDecimal value, String text) {
            super(value.unscaledValue(), value.scale());
            this.text = text;
        }

        String text() {
            return text;
        }
    }
}
