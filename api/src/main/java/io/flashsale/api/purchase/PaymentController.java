package io.flashsale.api.purchase;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.problem.ApiProblem;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.security.WebhookSignatures;
import io.flashsale.workflows.purchase.PurchaseStatus;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Valid;
import jakarta.validation.Validator;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * Payment confirmations come from the payment service, never from the buyer: with a token of scope
 * {@code payments}, or as the provider's webhook signed with HMAC-SHA256 ({@link WebhookSignatures}).
 * Both answer as pay does: 200 with the outcome, or 202 with the purchase link when it is not known
 * within a few seconds.
 */
@RestController
class PaymentController {

    private final PaymentConfirmation confirmation;
    private final WebhookSignatures signatures;
    private final ObjectMapper json;
    private final Validator validator;

    PaymentController(
            PaymentConfirmation confirmation, WebhookSignatures signatures, ObjectMapper json, Validator validator) {
        this.confirmation = confirmation;
        this.signatures = signatures;
        this.json = json;
        this.validator = validator;
    }

    /** Scope {@code payments} only (see SecurityConfiguration): a buyer's token answers 403. */
    @PostMapping("/api/purchases/{purchaseId}/payment")
    CompletableFuture<ResponseEntity<PurchaseResponse>> confirm(
            @PathVariable String purchaseId, @Valid @RequestBody PaymentBody body) {
        return confirmation.confirm(known(purchaseId), body.paymentId(), body.amount());
    }

    /** No bearer token: the signature over the raw body authenticates the provider. */
    @PostMapping("/api/payments/webhook")
    CompletableFuture<ResponseEntity<PurchaseResponse>> webhook(
            @RequestHeader(name = WebhookSignatures.TIMESTAMP, required = false) String timestamp,
            @RequestHeader(name = WebhookSignatures.SIGNATURE, required = false) String signature,
            @RequestBody byte[] body) {
        WebhookSignatures.Delivery delivery = signatures.verify(timestamp, signature, body);
        WebhookPayment payment = parse(body);
        CompletableFuture<ResponseEntity<PurchaseResponse>> answer;
        try {
            answer = confirmation.confirm(known(payment.purchaseId()), payment.paymentId(), payment.amount());
        } catch (RuntimeException failure) {
            forgetUndecided(delivery, null, failure);
            throw failure;
        }
        return answer.whenComplete((response, failure) -> forgetUndecided(delivery, response, failure));
    }

    /**
     * Decided: PAID (200) or a refusal the same bytes would meet again (a 4xx problem). Anything else
     * (202 while the Update is open, 503 with Temporal or MySQL down, a refusal because the purchase
     * is still RESERVED, its order not written yet) leaves the delivery to the provider's
     * redelivery, which the {@code pay} Update takes once per payment id.
     */
    private void forgetUndecided(
            WebhookSignatures.Delivery delivery, ResponseEntity<PurchaseResponse> response, Throwable failure) {
        boolean decided = failure == null
                ? response.getStatusCode().value() == 200
                : Failures.root(failure) instanceof ProblemException problem && isFinal(problem);
        if (!decided) {
            signatures.forget(delivery);
        }
    }

    private static boolean isFinal(ProblemException refusal) {
        boolean notYetPayable = refusal.problem() == ApiProblem.PAYMENT_REJECTED
                && PurchaseStatus.RESERVED
                        .name()
                        .equals(String.valueOf(refusal.properties().get("purchaseStatus")));
        return refusal.problem().status().is4xxClientError() && !notYetPayable;
    }

    private WebhookPayment parse(byte[] body) {
        WebhookPayment payment;
        try {
            payment = json.readValue(body, WebhookPayment.class);
        } catch (IOException e) {
            throw new ProblemException(ApiProblem.INVALID_REQUEST, "webhook body is not a payment: " + e.getMessage());
        }
        Set<ConstraintViolation<WebhookPayment>> violations = validator.validate(payment);
        if (!violations.isEmpty()) {
            throw new ProblemException(
                    ApiProblem.INVALID_REQUEST,
                    violations.stream()
                            .map(v -> v.getPropertyPath() + " " + v.getMessage())
                            .sorted()
                            .collect(Collectors.joining("; ")));
        }
        return payment;
    }

    private static PurchaseId known(String purchaseId) {
        return PurchaseId.parse(purchaseId)
                .orElseThrow(() -> new ProblemException(ApiProblem.PURCHASE_NOT_FOUND, "no purchase " + purchaseId));
    }
}
