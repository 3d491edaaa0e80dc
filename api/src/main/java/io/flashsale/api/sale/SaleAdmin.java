package io.flashsale.api.sale;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Creates sales: MySQL first (the authority), then Redis. Idempotent by sale id: the same request
 * again finds the row, reloads Redis (a no-op unless Redis lost the sale) and reports "existing".
 */
@Service
class SaleAdmin {

    private final SaleRepository sales;
    private final SaleStock stock;

    SaleAdmin(SaleRepository sales, SaleStock stock) {
        this.sales = sales;
        this.stock = stock;
    }

    record Created(Sale sale, boolean isNew) {}

    Created create(CreateSaleRequest request) {
        Sale wanted = toSale(request);
        boolean inserted = sales.insertIfAbsent(wanted);
        Sale stored = inserted ? wanted : sales.find(wanted.id()).orElseThrow();
        if (!inserted && !sameSettings(stored, wanted)) {
            throw new ProblemException(ApiProblem.SALE_CONFLICT, "sale " + wanted.id() + " exists with other settings");
        }
        stock.load(stored);
        return new Created(stored, inserted);
    }

    Sale find(String saleId) {
        return SaleIds.requireValid(saleId)
                .flatMap(sales::find)
                .orElseThrow(() -> new ProblemException(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId));
    }

    private static Sale toSale(CreateSaleRequest request) {
        String id = request.id() != null ? request.id() : newId();
        return new Sale(
                id,
                request.name(),
                request.stock(),
                request.stock(),
                millis(request.startsAt()),
                millis(request.endsAt()),
                request.payTimeoutOrDefault().truncatedTo(ChronoUnit.SECONDS),
                request.rateLimitsOrNone(),
                request.price());
    }

    private static boolean sameSettings(Sale stored, Sale wanted) {
        return stored.name().equals(wanted.name())
                && stored.total() == wanted.total()
                && Objects.equals(stored.startsAt(), wanted.startsAt())
                && Objects.equals(stored.endsAt(), wanted.endsAt())
                && stored.payTimeout().equals(wanted.payTimeout())
                && stored.rateLimits().equals(wanted.rateLimits())
                && stored.price().equals(wanted.price());
    }

    private static java.time.Instant millis(java.time.Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    private static String newId() {
        return "s"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
    }
}
