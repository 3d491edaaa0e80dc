package io.flashsale.api.sale;

import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.IdempotencyKeys;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.security.Buyer;
import io.flashsale.stores.sale.SaleChanges;
import io.flashsale.stores.sale.SaleChanges.Outcome;
import jakarta.validation.Valid;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Changes of a live sale (scope {@code admin}), each answered with the sale view, its changes
 * included; the token's subject is recorded as who made the change. A repeat changes nothing and
 * answers 200 again: close by the sale (it closes once), move by the window asked for, restock and
 * withdraw by their Idempotency-Key.
 */
@RestController
@RequestMapping("/api/sales/{saleId}")
class SaleChangeController {

    private final SaleChanges changes;
    private final SaleAdmin admin;
    private final SaleViews views;

    SaleChangeController(SaleChanges changes, SaleAdmin admin, SaleViews views) {
        this.changes = changes;
        this.admin = admin;
        this.views = views;
    }

    /** Closes the sale now: nobody is admitted after this answer; orders stay payable until their deadlines. */
    @PostMapping("/close")
    SaleResponse close(@PathVariable String saleId, @AuthenticationPrincipal Jwt token) {
        return answer(saleId, changes.close(valid(saleId), by(token)));
    }

    /** Moves the window: not into the past, not once the sale closed. */
    @PostMapping("/move")
    SaleResponse move(
            @PathVariable String saleId,
            @Valid @RequestBody MoveSaleRequest request,
            @AuthenticationPrincipal Jwt token) {
        return answer(saleId, changes.move(valid(saleId), request.startsAt(), request.endsAt(), by(token)));
    }

    /** Adds units: total and available grow, the sold-out marks drop. */
    @PostMapping("/restock")
    SaleResponse restock(
            @PathVariable String saleId,
            @RequestHeader("Idempotency-Key") String key,
            @Valid @RequestBody UnitsRequest request,
            @AuthenticationPrincipal Jwt token) {
        return answer(
                saleId, changes.restock(valid(saleId), IdempotencyKeys.requireValid(key), request.units(), by(token)));
    }

    /** Takes at most the units asked off sale, only units neither sold nor held. */
    @PostMapping("/withdraw")
    SaleResponse withdraw(
            @PathVariable String saleId,
            @RequestHeader("Idempotency-Key") String key,
            @Valid @RequestBody UnitsRequest request,
            @AuthenticationPrincipal Jwt token) {
        return answer(
                saleId, changes.withdraw(valid(saleId), IdempotencyKeys.requireValid(key), request.units(), by(token)));
    }

    private SaleResponse answer(String saleId, Outcome outcome) {
        return switch (outcome) {
            case CHANGED, UNCHANGED -> views.of(admin.find(saleId));
            case NOT_FOUND -> throw refused(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId);
            case CLOSED -> throw refused(ApiProblem.SALE_CLOSED, "sale " + saleId + " has closed");
            case IN_PAST -> throw refused(ApiProblem.WINDOW_IN_PAST, "the new end, or a new start, is in the past");
            case INVALID_WINDOW -> throw refused(ApiProblem.INVALID_REQUEST, "endsAt must be after startsAt");
            case KEY_CONFLICT -> throw refused(
                    ApiProblem.CHANGE_CONFLICT, "this Idempotency-Key was used for another change of the sale");
            case STORES_APART -> throw refused(
                    ApiProblem.SALE_NEEDS_REPAIR,
                    "Redis lost sale " + saleId + " or disagrees with MySQL: audit and repair it, then retry");
            case ARCHIVED -> throw refused(ApiProblem.SALE_ARCHIVED, "sale " + saleId + " is archived in Redis");
        };
    }

    private static String valid(String saleId) {
        return SaleIds.requireValid(saleId).orElseThrow(() -> refused(ApiProblem.SALE_NOT_FOUND, "no sale " + saleId));
    }

    private static String by(Jwt token) {
        return Buyer.of(token).userId();
    }

    private static ProblemException refused(ApiProblem problem, String detail) {
        return new ProblemException(problem, detail);
    }
}
