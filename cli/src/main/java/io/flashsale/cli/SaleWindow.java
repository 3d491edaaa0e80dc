package io.flashsale.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

/** {@code --starts} and {@code --ends} of a sale, as the api reads them (ISO-8601 instants). */
final class SaleWindow {

    static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--starts", paramLabel = "INSTANT", description = "when the sale opens (default: at creation)")
    private String starts;

    @Option(names = "--ends", paramLabel = "INSTANT", description = "when the sale ends (default: no end)")
    private String ends;

    ObjectNode body() {
        return addTo(JSON.createObjectNode());
    }

    /** Adds {@code startsAt} and {@code endsAt} to {@code body}, each when given. */
    ObjectNode addTo(ObjectNode body) {
        put(body, "startsAt", starts);
        put(body, "endsAt", ends);
        return body;
    }

    static void put(ObjectNode body, String field, String value) {
        if (value != null) {
            body.put(field, value);
        }
    }
}
