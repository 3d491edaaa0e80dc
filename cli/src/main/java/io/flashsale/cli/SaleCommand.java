package io.flashsale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code bin/flashsale sale ...}: an operator's changes of sales through the api's admin endpoints; prints the sale. */
@Command(name = "sale", description = "Change and watch sales through the api's admin endpoints, signed as --as.")
final class SaleCommand {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ApiOption api;

    @Option(
            names = "--as",
            paramLabel = "USER",
            scope = ScopeType.INHERIT,
            description = "who makes the change, as the sale's changes record it (default: the login name)")
    private String user;

    @Command(name = "create", description = "Create a sale and print it.")
    int create(@Mixin NewSale sale) {
        return answer(api.client().createSale(token(), sale));
    }

    @Command(name = "list", description = "Every sale, one row each.")
    int list() {
        ApiClient client = api.client();
        String token = token();
        ApiClient.Response ids = client.sales(token);
        if (ids.status() != 200) {
            return ApiOption.refused(spec, ids);
        }
        out().print(SaleText.header());
        for (JsonNode id : ids.body().path("sales")) {
            ApiClient.Response sale = client.sale(token, id.asText());
            if (sale.status() == 200) {
                out().print(SaleText.row(sale.body(), Instant.now()));
            }
        }
        return 0;
    }

    @Command(name = "show", description = "Print the sale: its window, units, orders and changes.")
    int show(
            @Parameters(paramLabel = "SALE", description = "the sale's id") String sale,
            @Option(names = "--watch", description = "again every second until interrupted, like top") boolean watch)
            throws InterruptedException {
        ApiClient client = api.client();
        String token = token();
        int code;
        while ((code = answer(client.sale(token, sale))) == 0 && watch) {
            Thread.sleep(1000);
            out().print("\033[H\033[2J" + Instant.now() + "\n");
        }
        return code;
    }

    @Command(name = "close", description = "End the sale now.")
    int close(@Parameters(paramLabel = "SALE", description = "the sale's id") String sale) {
        return answer(api.client().closeSale(token(), sale));
    }

    @Command(name = "restock", description = "Add N units to the sale, once per Idempotency-Key.")
    int restock(
            @Parameters(paramLabel = "SALE", description = "the sale's id") String sale,
            @Parameters(paramLabel = "N", converter = PositiveNumber.class, description = "units") Integer units,
            @Mixin IdempotencyKey key) {
        return answer(api.client().restock(token(), sale, key.printed(spec), units));
    }

    @Command(
            name = "withdraw",
            description = "Take up to N units off the sale (no more than are available), once per Idempotency-Key.")
    int withdraw(
            @Parameters(paramLabel = "SALE", description = "the sale's id") String sale,
            @Parameters(paramLabel = "N", converter = PositiveNumber.class, description = "units") Integer units,
            @Mixin IdempotencyKey key) {
        return answer(api.client().withdraw(token(), sale, key.printed(spec), units));
    }

    @Command(name = "move", description = "Set the sale's window.")
    int move(@Parameters(paramLabel = "SALE", description = "the sale's id") String sale, @Mixin SaleWindow window) {
        return answer(api.client().moveSale(token(), sale, window));
    }

    private int answer(ApiClient.Response response) {
        if (response.status() / 100 != 2) {
            return ApiOption.refused(spec, response);
        }
        out().print(SaleText.of(response.body(), Instant.now()));
        out().flush();
        return 0;
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private String token() {
        return Tokens.fromEnvironment().admin(user == null ? operator() : user);
    }

    /** The operating-system user, in the alphabet of user ids, as who made a change. */
    private static String operator() {
        String user = System.getProperty("user.name", "").replaceAll("[^A-Za-z0-9._@-]", "");
        return user.isEmpty() ? "operator" : user;
    }

    /** The change's Idempotency-Key: {@code --key}, else a new one, printed so the change can be repeated. */
    static final class IdempotencyKey {

        @Option(names = "--key", paramLabel = "KEY", description = "the change's Idempotency-Key (default: a new one)")
        private String key;

        String printed(CommandSpec spec) {
            String chosen = key == null ? "cli-" + UUID.randomUUID() : key;
            spec.commandLine().getErr().println("Idempotency-Key " + chosen + " (repeat with --key " + chosen + ")");
            return chosen;
        }
    }
}
