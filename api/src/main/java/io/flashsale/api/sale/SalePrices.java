package io.flashsale.api.sale;

import io.flashsale.stores.sale.Price;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Sale prices, remembered: a sale's price never changes (creating the sale again with another price
 * is a sale-conflict), so a remembered price is never stale. A miss reads the sale's Redis meta
 * (written when the sale is loaded), and only for {@link #of} MySQL after that, so a buyer's status
 * read never waits for MySQL. At most {@value #REMEMBERED} sales are remembered; past that the
 * memory starts over.
 */
@Component
public class SalePrices {

    static final int REMEMBERED = 10_000;

    private final SaleStock stock;
    private final SaleRepository sales;
    private final Map<String, Price> prices = new ConcurrentHashMap<>();

    SalePrices(SaleStock stock, SaleRepository sales) {
        this.stock = stock;
        this.sales = sales;
    }

    /** From memory or Redis; MySQL (the authority) when neither has it. Empty when MySQL does not know the sale. */
    public Optional<Price> of(String saleId) {
        return withoutMySql(saleId).or(() -> sales.find(saleId).map(Sale::price).map(price -> remember(saleId, price)));
    }

    /** From memory or Redis only: empty when neither has it (a sale from before prices, or archived). */
    public Optional<Price> withoutMySql(String saleId) {
        Price known = prices.get(saleId);
        if (known != null) {
            return Optional.of(known);
        }
        return stock.price(saleId).map(price -> remember(saleId, price));
    }

    private Price remember(String saleId, Price price) {
        if (prices.size() >= REMEMBERED) {
            prices.clear();
        }
        prices.put(saleId, price);
        return price;
    }
}
