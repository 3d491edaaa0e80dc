package io.flashsale.api.sale;

import io.flashsale.api.AsciiIds;
import java.util.Optional;

/** The one rule for sale ids, so no path can address another Redis key or SQL object. */
public final class SaleIds {

    /** The ids a sale may have; the OpenAPI description states it too, {@link #requireValid} checks it. */
    public static final String PATTERN = "[A-Za-z0-9_]{1,40}";

    private static final int MAX_LENGTH = 40;

    private SaleIds() {}

    /** @return the id when it is well-formed, empty otherwise (callers answer "not found") */
    public static Optional<String> requireValid(String saleId) {
        return saleId != null && AsciiIds.lettersDigitsAnd(saleId, MAX_LENGTH, "_")
                ? Optional.of(saleId)
                : Optional.empty();
    }
}
