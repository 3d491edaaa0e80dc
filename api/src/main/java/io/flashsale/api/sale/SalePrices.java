package io.flashsale.api.sale;

import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Sale prices as MySQL holds them, remembered: a sale's price never changes (creating the sale again
 * with another price is a sale-conflict), so a remembered price is never stale. At most {@value
 * #REMEMBERED} sales are remembered; past that the memory starts over.
 */
@Component
public class SalePrices {

    static final int REMEMBERED = 10_000;

    private final SaleRepository sales;
    private final Map<String, Price> prices = new ConcurrentHashMap<>();

    SalePrices(SaleRepository sales) {
        this.sales = sales;
    }

    /** Empty when MySQL does not know the sale. */
    public Optional<Price> of(String saleId) {
        Price known = prices.get(saleId);
        if (known != null) {
            return Optional.of(known);
        }
        Optional<Price> read = sales.find(saleId).map(Sale::price);
        read.ifPresent(price -> remember(saleId, price));
        return read;
    }

    private void remember(String saleId, Price price) {
        if (prices.size() >= REMEMBERED) {
            prices.clear();
        }
        prices.put(saleId, price);
    }
}
