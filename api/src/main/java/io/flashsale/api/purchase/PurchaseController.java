package io.flashsale.api.purchase;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.sale.SalePrices;
import io.flashsale.api.security.Buyer;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A buyer's purchase: status and cancel (the purchase itself is {@link PurchaseEndpoint}'s; payments
 * come from the payment service, see PaymentController). The buyer is the token's subject; someone
 * else's purchase answers 404, so its existence does not leak.
 */
@RestController
class PurchaseController {

    private final PurchaseLookup lookup;
    private final PurchaseCommands commands;
    private final SalePrices prices;

    PurchaseController(PurchaseLookup lookup, PurchaseCommands commands, SalePrices prices) {
        this.lookup = lookup;
        this.commands = commands;
        this.prices = prices;
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
