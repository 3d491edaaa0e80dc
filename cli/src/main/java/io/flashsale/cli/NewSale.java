package io.flashsale.cli;

import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of {@code sale create}: the body of {@code POST /api/sales}. */
final class NewSale {

    @Option(names = "--stock", paramLabel = "N", required = true, description = "units on sale")
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
    private String id;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = "sale", description = "the sale's name")
    private String name;

    @Option(
            names = "--pay-timeout",
            paramLabel = "PT15M",
            description = "how long a winner has to pay, an ISO-8601 duration (default: the api's)")
    private String payTimeout;

    @Mixin
    private SaleWindow window;

    Map<String, Object> body() {
        Map<String, Object> body = window.body();
        body.put("id", id);
        body.put("name", name);
        body.put("stock", stock);
        body.put("payTimeout", payTimeout);
        body.put("price", Map.of("amountMinor", price, "currency", currency));
        body.values().removeIf(Objects::isNull);
        return body;
    }
}
