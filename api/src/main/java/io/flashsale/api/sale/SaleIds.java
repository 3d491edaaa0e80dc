package io.flashsale.api.sale;

import java.util.Optional;
import java.util.regex.Pattern;

/** The one rule for sale ids, so no path can address another Redis key or SQL object. */
public final class SaleIds {

    public static final String PATTERN = "[A-Za-z0-9_]{1,40}";
    private static final Pattern VALID = Pattern.compile(PATTERN);

    private SaleIds() {}

    /** @return the id when it is well-formed, empty otherwise (callers answer "not found") */
    public static Optional<String> requireValid(String saleId) {
        return saleId != null && VALID.matcher(saleId).matches() ? Optional.of(saleId) : Optional.empty();
    }
}
