package io.flashsale.stores;

import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the flash-sale keys live in Redis. Every key starts with {@code keyPrefix}, so tests (and
 * several installations sharing one Redis) stay apart.
 *
 * @param keyPrefix first segment of every key, e.g. {@code fs:{sale:S1}:stock}
 */
@Validated
@ConfigurationProperties("flashsale.redis")
public record RedisKeyProperties(@DefaultValue("fs") @Pattern(regexp = "[A-Za-z0-9_:.-]{1,40}") String keyPrefix) {

    /** The keys of one sale; they share the hash tag {@code {sale:ID}} (one Redis Cluster slot). */
    public SaleKeys sale(String saleId) {
        return SaleKeys.of(keyPrefix + ":{sale:" + saleId + "}");
    }

    /** The global set of loaded sale ids. */
    public String sales() {
        return keyPrefix + ":sales";
    }

    /** The sorted set of sales the admission relay visits, scored by their close time. */
    public String relaySales() {
        return keyPrefix + ":sales:relay";
    }

    /** Present once the sales loaded before {@link #relaySales()} existed were added to it. */
    public String relaySalesIndexed() {
        return keyPrefix + ":sales:relay:indexed";
    }

    /**
     * The pub/sub channel on which release.lua, repair.lua, load_sale.lua and restock.lua announce a
     * sale whose stock may have grown (the message is the sale id). A plain channel, not a sharded one: units
     * come back at most once each, and a Redis Cluster delivers a plain PUBLISH to subscribers on
     * every node.
     */
    public String stockReturned() {
        return keyPrefix + ":stock-returned";
    }

    /** The counter {@code ReplicaAcks} increments before each WAIT: the write its WAIT measures. */
    public String replicaAck() {
        return keyPrefix + ":replica-ack";
    }

    /** Marks one payment webhook delivery (by its signature) as seen, so a replay is refused. */
    public String webhookDelivery(String signature) {
        return keyPrefix + ":webhook:" + signature;
    }
}
