package io.flashsale.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import picocli.CommandLine.Option;

/** {@code --starts} and {@code --ends} of a sale, as the api reads them (ISO-8601 instants); its JSON, each when given. */
@JsonInclude(JsonInclude.Include.NON_NULL)
final class SaleWindow {

    @JsonProperty("startsAt")
    @Option(names = "--starts", paramLabel = "INSTANT", description = "when the sale opens (default: at creation)")
    private String starts;

    @JsonProperty("endsAt")
    @Option(names = "--ends", paramLabel = "INSTANT", description = "when the sale ends (default: no end)")
    private String ends;
}
