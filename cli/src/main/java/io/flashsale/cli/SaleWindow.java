package io.flashsale.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Option;

/** {@code --starts} and {@code --ends} of a sale, as the api reads them (ISO-8601 instants). */
final class SaleWindow {

    @Option(names = "--starts", paramLabel = "INSTANT", description = "when the sale opens (default: at creation)")
    private String starts;

    @Option(names = "--ends", paramLabel = "INSTANT", description = "when the sale ends (default: no end)")
    private String ends;

    /** {@code startsAt} and {@code endsAt}, each when given; a mutable map, for a sale's other fields. */
    Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("startsAt", starts);
        body.put("endsAt", ends);
        body.values().removeIf(Objects::isNull);
        return body;
    }
}
