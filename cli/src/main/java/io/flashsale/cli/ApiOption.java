package io.flashsale.cli;

import io.flashsale.launcher.local.LocalCommands;
import io.flashsale.testkit.ApiClient;
import java.net.URI;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code --api URL}: the api a command talks to, by default the one {@code bin/flashsale up} starts. */
final class ApiOption {

    @Option(
            names = "--api",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:${env:API_PORT:-" + LocalCommands.API_PORT + "}",
            scope = ScopeType.INHERIT,
            description = "the api")
    private URI address;

    ApiClient client() {
        return new ApiClient(address);
    }

    /** The api's refusal on stderr, {@code flashsale COMMAND: STATUS TYPE: DETAIL}; the exit code 1. */
    static int refused(CommandSpec spec, ApiClient.Response response) {
        spec.commandLine()
                .getErr()
                .println(spec.qualifiedName() + ": " + response.status() + " " + response.problemType() + ": "
                        + response.body().path("detail").asText());
        return 1;
    }
}
