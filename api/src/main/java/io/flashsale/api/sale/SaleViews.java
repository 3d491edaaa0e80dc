package io.flashsale.api.sale;

import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleChangeLog;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import org.springframework.stereotype.Component;

/** The sale view: the sale with its stock as MySQL and Redis see it, its orders by status and its changes. */
@Component
class SaleViews {

    private final SaleRepository sales;
    private final SaleStock stock;
    private final SaleChangeLog changes;

    SaleViews(SaleRepository sales, SaleStock stock, SaleChangeLog changes) {
        this.sales = sales;
        this.stock = stock;
        this.changes = changes;
    }

    SaleResponse of(Sale sale) {
        var redisStock = stock.stock(sale.id());
        return SaleResponse.of(
                sale,
                redisStock.isPresent() ? redisStock.getAsLong() : null,
                sales.counts(sale.id()),
                changes.of(sale.id()));
    }
}
