package io.flashsale.api.sale;

import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import jakarta.validation.Valid;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Sale admin (scope {@code admin}). */
@RestController
@RequestMapping("/api/sales")
class SaleController {

    private final SaleAdmin admin;
    private final SaleRepository sales;
    private final SaleStock stock;

    SaleController(SaleAdmin admin, SaleRepository sales, SaleStock stock) {
        this.admin = admin;
        this.sales = sales;
        this.stock = stock;
    }

    /** 201 when created, 200 when the same sale existed already, 409 when it exists otherwise. */
    @PostMapping
    ResponseEntity<SaleResponse> create(@Valid @RequestBody CreateSaleRequest request) {
        SaleAdmin.Created created = admin.create(request);
        SaleResponse body = view(created.sale());
        if (!created.isNew()) {
            return ResponseEntity.ok(body);
        }
        return ResponseEntity.created(URI.create("/api/sales/" + body.id())).body(body);
    }

    @GetMapping("/{saleId}")
    SaleResponse get(@PathVariable String saleId) {
        return view(admin.find(saleId));
    }

    private SaleResponse view(Sale sale) {
        var redisStock = stock.stock(sale.id());
        return SaleResponse.of(sale, redisStock.isPresent() ? redisStock.getAsLong() : null, sales.counts(sale.id()));
    }
}
