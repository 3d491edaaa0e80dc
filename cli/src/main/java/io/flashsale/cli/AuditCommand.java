package io.flashsale.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.flashsale.stores.audit.AuditVerdict;
import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/flashsale audit}: the api's invariant audit of every sale (or one), repaired first with {@code --repair}. */
@Command(
        name = "audit",
        description = {
            "Check invariants I1-I5 across MySQL, Redis and Temporal through the api's admin audit: one row a sale,"
                    + " PASS or FAIL; exit 1 on any violation.",
            "--repair first rebuilds the sale's Redis stock, holds and buyers from MySQL and Temporal (refused while"
                    + " admissions are in flight) and prints what it changed."
        })
final class AuditCommand implements Callable<Integer> {

    private static final String ROW = "%-24s %6s %6s %8s %6s %6s %6s %8s %10s  %s%n";
    private static final String[] COLUMNS = {
        "saleId", "total", "mysqlAvailable", "pendingPayment", "paid", "redisStock", "heldHolds", "runningWorkflows"
    };

    @Spec
    private CommandSpec spec;

    @Option(names = "--sale", paramLabel = "SALE", description = "only this sale (default: every sale)")
    private String sale;

    @Option(names = "--repair", description = "repair each sale first")
    private boolean repair;

    @Mixin
    private ApiOption apiOption;

    private ApiClient api;
    private String token;
    private PrintWriter out;

    @Override
    public Integer call() {
        api = apiOption.client();
        token = Tokens.fromEnvironment().admin("flashsale-audit");
        out = spec.commandLine().getOut();
        List<String> sales = new ArrayList<>();
        if (sale != null) {
            sales.add(sale);
        } else {
            ApiClient.Response listed = api.sales(token);
            if (listed.status() != 200) {
                return ApiOption.refused(spec, listed);
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
            code = Math.max(code, audit(id));
        }
        return code;
    }

    /** The sale's row (repaired first with {@code --repair}), a line for each violation; 0 when it passes. */
    private int audit(String sale) {
        ApiClient.Response answer = repair ? api.repair(token, sale) : api.audit(token, sale);
        if (answer.status() != 200) {
            return ApiOption.refused(spec, answer);
        }
        JsonNode report = answer.body();
        if (repair) {
            out.println(SaleText.fill(
                    "repair {saleId}: sale reloaded {saleReloaded}, holds made HELD %d {holdsRestored}, holds released"
                                    .formatted(report.path("holdsRestored").size())
                            + " %d {holdsReleased}, buyers restored {buyersRestored}, stock {stockBefore|missing}"
                                    .formatted(report.path("holdsReleased").size())
                            + " -> {stockAfter}",
                    report));
            report = report.path("audit");
        }
        List<Object> row = SaleText.cells(report, COLUMNS);
        row.add(report.path("violations").size());
        row.add(report.path("result").asText());
        out.printf(ROW, row.toArray());
        for (JsonNode violation : report.path("violations")) {
            out.println("    " + SaleText.fill("{invariant}: {detail}", violation));
        }
        return AuditVerdict.PASS.name().equals(report.path("result").asText()) ? 0 : 1;
    }
}
