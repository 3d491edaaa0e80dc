package io.flashsale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code bin/flashsale audit}: the invariant audit of every sale (or one), through the api's admin
 * endpoints, one row a sale and one line a violation; with {@code --repair} each sale is repaired
 * first (the api's repair is idempotent: a second run finds nothing to restore). Exits 0 when every
 * sale passes, 1 when one fails, the api refuses or cannot be reached, 2 on a usage error.
 */
public final class AuditCommand {

    static final String USAGE =
            """
            usage: bin/flashsale audit [--sale SALE] [--repair] [--api URL]
            """;

    private static final String ROW = "%-24s %6s %6s %8s %6s %6s %6s %8s %10s  %s%n";

    private final ApiClient api;
    private final String token;
    private final PrintStream out;
    private final PrintStream err;

    private AuditCommand(ApiClient api, String token, PrintStream out, PrintStream err) {
        this.api = api;
        this.token = token;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            CommandLine line = CommandLine.parse(args, Set.of("repair"));
            if (!line.words().isEmpty()) {
                throw new IllegalArgumentException("unexpected " + line.words().get(0));
            }
            ApiClient api = new ApiClient(URI.create(line.option("api", "http://127.0.0.1:8080")));
            AuditCommand audit = new AuditCommand(api, Tokens.fromEnvironment().admin("flashsale-audit"), out, err);
            return audit.run(line.option("sale", null), line.flags().contains("repair"));
        } catch (IllegalArgumentException usage) {
            err.println("flashsale audit: " + usage.getMessage());
            err.print(USAGE);
            return 2;
        } catch (UncheckedIOException unreachable) {
            err.println("flashsale audit: cannot reach the api: " + unreachable.getMessage());
            return 1;
        }
    }

    private int run(String sale, boolean repair) {
        List<String> sales = new ArrayList<>();
        if (sale != null) {
            sales.add(sale);
        } else {
            ApiClient.Response listed = api.sales(token);
            if (listed.status() != 200) {
                return refused(listed);
            }
            listed.body().path("sales").forEach(id -> sales.add(id.asText()));
        }
        if (sales.isEmpty()) {
            out.println("no sales");
            return 0;
        }
        out.printf(
                ROW, "SALE", "TOTAL", "AVAIL", "PENDING", "PAID", "REDIS", "HELD", "RUNNING", "VIOLATIONS", "RESULT");
        int code = 0;
        for (String id : sales) {
            code = Math.max(code, repair ? repair(id) : audit(id));
        }
        return code;
    }

    private int audit(String sale) {
        ApiClient.Response audit = api.audit(token, sale);
        return audit.status() == 200 ? print(audit.body()) : refused(audit);
    }

    private int repair(String sale) {
        ApiClient.Response repair = api.repair(token, sale);
        if (repair.status() != 200) {
            return refused(repair);
        }
        JsonNode done = repair.body();
        out.printf(
                "repair %s: sale reloaded %s, holds made HELD %d %s, holds released %d %s, buyers restored %s,"
                        + " stock %s -> %s%n",
                done.path("saleId").asText(),
                done.path("saleReloaded").asText(),
                done.path("holdsRestored").size(),
                done.path("holdsRestored"),
                done.path("holdsReleased").size(),
                done.path("holdsReleased"),
                done.path("buyersRestored").asText(),
                orMissing(done.path("stockBefore"), "missing"),
                done.path("stockAfter").asText());
        return print(done.path("audit"));
    }

    /** One row for the sale's report, a line for each violation; 0 when it passes. */
    private int print(JsonNode report) {
        out.printf(
                ROW,
                report.path("saleId").asText(),
                report.path("total").asText(),
                report.path("mysqlAvailable").asText(),
                report.path("pendingPayment").asText(),
                report.path("paid").asText(),
                orMissing(report.path("redisStock"), "-"),
                report.path("heldHolds").asText(),
                report.path("runningWorkflows").asText(),
                report.path("violations").size(),
                report.path("result").asText());
        for (JsonNode violation : report.path("violations")) {
            out.println("    " + violation.path("invariant").asText() + ": "
                    + violation.path("detail").asText());
        }
        return AuditVerdict.PASS.name().equals(report.path("result").asText()) ? 0 : 1;
    }

    private int refused(ApiClient.Response response) {
        err.println("flashsale audit: " + response.refusal());
        return 1;
    }

    private static String orMissing(JsonNode value, String missing) {
        return value.isMissingNode() || value.isNull() ? missing : value.asText();
    }
}
