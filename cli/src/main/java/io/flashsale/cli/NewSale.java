package io.flashsale.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of {@code sale create}; its JSON is the body of {@code POST /api/sales}, each field when given. */
@JsonInclude(JsonInclude.Include.NON_NULL)
final class NewSale {

    @Option(names = "--stock", paramLabel = "N", required = true, description = "units on sale")
    @JsonProperty
    private Long stock;

    @Option(
            names = "--price",
            paramLabel = "AMOUNT_MINOR",
            required = true,
            description = "a unit's price in minor units (cents)")
    private Long price;

    @Option(names = "--currency", paramLabel = "CURRENCY", defaultValue = "EUR", description = "the price's currency")
    private String currency;

    @Option(names = "--id", paramLabel = "ID", description = "the sale's id (default: the api makes one)")
    @JsonProperty
    private String id;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "sale", description = "the sale's name")
    @JsonProperty
    private String name;

    @Option(
            names = "--pay-timeout",
            paramLabel = "PT15M",
            description = "how long a winner has to pay, an ISO-8601 duration (default: the api's)")
    @JsonProperty
    private String payTimeout;

    @Mixin
    @JsonUnwrapped
    private SaleWindow window;

    @JsonProperty("price")
    private Map<String, Object> price() {
        return Map.of("amountMinor", price, "currency", currency);
    }
}
