package io.flashsale.stores.admission;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.SaleKeys;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The front door of a sale: one atomic Redis script decides every buyer, rate limit included
 * (limited_admit.lua). Sold-out and duplicate traffic ends here, without Temporal or MySQL.
 */
public class AdmissionGate {

    private final StringRedisTemplate redis;
    private final RedisKeyProperties keys;
    private final RedisScript<List> limitedAdmit;

    public AdmissionGate(StringRedisTemplate redis, RedisKeyProperties keys, RedisScript<List> limitedAdmit) {
        this.redis = redis;
        this.keys = keys;
        this.limitedAdmit = limitedAdmit;
    }

    /**
     * Who sends the request, for the token buckets.
     *
     * @param address the client address, already reduced to a safe key segment by the caller
     * @param limits the default buckets; the sale's meta overrides them
     */
    public record Client(String address, RateLimits limits) {}

    /**
     * Runs limited_admit.lua once: the rate limit (rate_limit.lua) and then the admission, one round
     * trip. RATE_LIMITED writes nothing; otherwise a token is spent whatever the admission decides.
     */
    public Admission admit(String saleId, String userId, String idempotencyKey, Client client) {
        SaleKeys sk = keys.sale(saleId);
        List<String> args =
                new ArrayList<>(List.of(saleId, userId, idempotencyKey, PurchaseRequest.purchaseId(saleId, userId)));
        args.addAll(client.limits().arguments());
        List<?> reply = redis.execute(
                limitedAdmit,
                List.of(
                        sk.meta(),
                        sk.stock(),
                        sk.buyers(),
                        sk.holds(),
                        sk.admissions(),
                        sk.userBucket(userId),
                        sk.addressBucket(client.address())),
                args.toArray());
        return Admission.of(reply);
    }

    /**
     * Drops an admission entry whose workflow the caller started itself, so the relay has less to do.
     * Losing this call is harmless: the relay starts the workflow again, which Temporal dedupes.
     */
    public void forget(String saleId, String entryId) {
        redis.opsForStream().delete(keys.sale(saleId).admissions(), entryId);
    }

    /** The purchase's hold; empty when Redis has no hold for the purchase. */
    public Optional<HoldState> holdState(String saleId, String purchaseId) {
        return Optional.ofNullable(
                        redis.<String, String>opsForHash().get(keys.sale(saleId).holds(), purchaseId))
                .map(HoldState::valueOf);
    }
}
