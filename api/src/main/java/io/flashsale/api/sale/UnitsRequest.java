package io.flashsale.api.sale;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** Units to add to a sale (restock) or to take off it (withdraw). */
public record UnitsRequest(@Min(1) @Max(1_000_000) int units) {}
