package io.flashsale.api.sale;

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
    private final SaleViews views;

    SaleController(SaleAdmin admin, SaleViews views) {
        this.admin = admin;
        this.views = views;
    }

    /** 201 when created, 200 when the same sale existed already, 409 when it exists otherwise. */
    @PostMapping
    ResponseEntity<SaleResponse> create(@Valid @RequestBody CreateSaleRequest request) {
        SaleAdmin.Created created = admin.create(request);
        SaleResponse body = views.of(created.sale());
        if (!created.isNew()) {
            return ResponseEntity.ok(body);
        }
        return ResponseEntity.created(URI.create("/api/sales/" + body.id())).body(body);
    }

    /** The sale with its stock, orders by status and changes. */
    @GetMapping("/{saleId}")
    SaleResponse get(@PathVariable String saleId) {
        return views.of(admin.find(saleId));
    }
}
