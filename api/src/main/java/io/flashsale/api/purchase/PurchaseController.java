package io.flashsale.api.purchase;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.IdempotencyKeys;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.sale.SaleIds;
import io.flashsale.api.sale.SalePrices;
import io.flashsale.api.security.Buyer;
import io.flashsale.api.security.ClientAddress;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * Buying: admission, status, cancel (payments come from the payment service, see PaymentController). The buyer is the token's subject; someone else's
 * purchase answers 404, so its existence does not leak.
 */
@RestController
class PurchaseController {

    private final PurchaseAdmission admission;
    private final PurchaseLookup lookup;
    private final PurchaseCommands commands;
    private final SalePrices prices;

    PurchaseController(
            PurchaseAdmission admission, PurchaseLookup lookup, PurchaseCommands commands, SalePrices prices) {
        this.admission = admission;
        this.lookup = lookup;
        this.commands = commands;
        this.prices = prices;
    }

    /**
     * 202 admitted (the workflow is running or held in the outbox), 200 for a repeat of the same key,
     * 429 with Retry-After when the user's or the client address's token bucket is empty.
     */
    @PostMapping("/api/sales/{saleId}/purchases")
    ResponseEntity<PurchaseResponse> purchase(
            @PathVariable String saleId,
            @RequestHeader("Idempotency-Key") String idempotencyKey,
            @AuthenticationPrincipal Jwt token,
            HttpServletRequest request) {
        IdempotencyKeys.requireValid(idempotencyKey);
        String sale = SaleIds.requireValid(saleId)
                .orElseThrow(() -> new ProblemException(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId));
        PurchaseShortcut.rethrowOutcome(request);
        PurchaseAdmission.Result result =
                admission.admit(sale, Buyer.of(token).userId(), idempotencyKey, ClientAddress.of(request));
        if (!result.admitted()) {
            return ResponseEntity.ok(result.purchase());
        }
        return ResponseEntity.accepted()
                .location(URI.create(result.purchase().links().get("self")))
                .body(result.purchase());
    }

    @GetMapping("/api/purchases/{purchaseId}")
    PurchaseResponse status(@PathVariable String purchaseId, @AuthenticationPrincipal Jwt token) {
        PurchaseId id = owned(purchaseId, token);
        PurchaseResponse purchase = lookup.find(id).orElseThrow(() -> PurchaseCommands.notFound(id));
        return prices.withoutMySql(id.saleId()).map(purchase::withPrice).orElse(purchase);
    }

    /** 200 with the outcome, or 202 with the purchase link when it is not known within a few seconds. */
    @PostMapping("/api/purchases/{purchaseId}/cancel")
    CompletableFuture<ResponseEntity<PurchaseResponse>> cancel(
            @PathVariable String purchaseId, @AuthenticationPrincipal Jwt token) {
        return commands.cancel(owned(purchaseId, token));
    }

    private static PurchaseId owned(String purchaseId, Jwt token) {
        String userId = Buyer.of(token).userId();
        return PurchaseId.parse(purchaseId)
                .filter(id -> id.isOwnedBy(userId))
                .orElseThrow(() -> new ProblemException(ApiProblem.PURCHASE_NOT_FOUND, "no purchase " + purchaseId));
    }
}
