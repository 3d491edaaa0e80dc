package io.flashsale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * {@code bin/flashsale sale ...}: what an operator does to sales, through the api's admin endpoints
 * and its one HTTP client ({@link ApiClient}), signed as the operator with the api's secret. Exits 0 when
 * the api agreed, 1 when it refused (the problem's type and detail on stderr) or was unreachable, 2
 * on a usage error.
 */
public final class SaleCommand {

    static final String USAGE =
            """
            usage: bin/flashsale sale COMMAND [--api URL] [--as USER]
              create --stock N --price AMOUNT_MINOR [--currency EUR] [--id ID] [--name NAME]
                     [--pay-timeout PT15M] [--starts INSTANT] [--ends INSTANT]
              list
              show SALE [--watch]
              close SALE
              restock SALE N [--key KEY]
              withdraw SALE N [--key KEY]
              move SALE [--starts INSTANT] [--ends INSTANT]
            """;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ApiClient api;
    private final String token;
    private final PrintStream out;
    private final PrintStream err;

    private SaleCommand(ApiClient api, String token, PrintStream out, PrintStream err) {
        this.api = api;
        this.token = token;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        try {
            CommandLine line = CommandLine.parse(args, Set.of("watch"));
            ApiClient api = new ApiClient(URI.create(line.option("api", "http://127.0.0.1:8080")));
            String user = line.option("as", operator());
            return new SaleCommand(api, Tokens.fromEnvironment().admin(user), out, err).run(line);
        } catch (IllegalArgumentException usage) {
            err.println("flashsale sale: " + usage.getMessage());
            err.print(USAGE);
            return 2;
        } catch (UncheckedIOException unreachable) {
            err.println("flashsale sale: cannot reach the api: " + unreachable.getMessage());
            return 1;
        }
    }

    private int run(CommandLine line) throws InterruptedException {
        return switch (line.word(0, "a command")) {
            case "create" -> answer(api.createSale(token, saleBody(line)));
            case "list" -> list();
            case "show" -> show(line.word(1, "SALE"), line.flags().contains("watch"));
            case "close" -> answer(api.closeSale(token, line.word(1, "SALE")));
            case "restock" -> answer(api.restock(token, line.word(1, "SALE"), key(line), line.number(2, "N")));
            case "withdraw" -> answer(api.withdraw(token, line.word(1, "SALE"), key(line), line.number(2, "N")));
            case "move" -> answer(api.moveSale(token, line.word(1, "SALE"), window(line)));
            default -> throw new IllegalArgumentException("unknown command " + line.word(0, "a command"));
        };
    }

    private int list() {
        ApiClient.Response ids = api.sales(token);
        if (ids.status() != 200) {
            return refused(ids);
        }
        out.print(SaleText.header());
        for (JsonNode id : ids.body().path("sales")) {
            ApiClient.Response sale = api.sale(token, id.asText());
            if (sale.status() == 200) {
                out.print(SaleText.row(sale.body(), Instant.now()));
            }
        }
        return 0;
    }

    /** Once, or with {@code watch} every second until interrupted (like top). */
    private int show(String saleId, boolean watch) throws InterruptedException {
        int code = answer(api.sale(token, saleId));
        while (watch && code == 0) {
            Thread.sleep(1000);
            out.print("\033[H\033[2J" + Instant.now() + "\n");
            code = answer(api.sale(token, saleId));
        }
        return code;
    }

    private int answer(ApiClient.Response response) {
        if (response.status() / 100 != 2) {
            return refused(response);
        }
        out.print(SaleText.of(response.body(), Instant.now()));
        return 0;
    }

    private int refused(ApiClient.Response response) {
        err.println("flashsale sale: " + response.refusal());
        return 1;
    }

    /** The change's Idempotency-Key: {@code --key}, else a new one, printed so the change can be repeated. */
    private String key(CommandLine line) {
        String key = line.option("key", "cli-" + UUID.randomUUID());
        err.println("Idempotency-Key " + key + " (repeat with --key " + key + ")");
        return key;
    }

    private static ObjectNode saleBody(CommandLine line) {
        ObjectNode body = JSON.createObjectNode();
        put(body, "id", line.option("id", null));
        body.put("name", line.option("name", "sale"));
        body.put("stock", required(line, "stock"));
        put(body, "payTimeout", line.option("pay-timeout", null));
        put(body, "startsAt", line.option("starts", null));
        put(body, "endsAt", line.option("ends", null));
        body.putObject("price")
                .put("amountMinor", required(line, "price"))
                .put("currency", line.option("currency", "EUR"));
        return body;
    }

    private static ObjectNode window(CommandLine line) {
        ObjectNode window = JSON.createObjectNode();
        put(window, "startsAt", line.option("starts", null));
        put(window, "endsAt", line.option("ends", null));
        return window;
    }

    private static long required(CommandLine line, String option) {
        try {
            return Long.parseLong(line.option(option, ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + option + " must be a whole number");
        }
    }

    private static void put(ObjectNode body, String field, String value) {
        if (value != null) {
            body.put(field, value);
        }
    }

    /** The operating-system user, in the alphabet of user ids, as who made a change. */
    private static String operator() {
        String user = System.getProperty("user.name", "").replaceAll("[^A-Za-z0-9._@-]", "");
        return user.isEmpty() ? "operator" : user;
    }
}
