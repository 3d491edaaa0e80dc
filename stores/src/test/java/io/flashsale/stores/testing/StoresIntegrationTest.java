package io.flashsale.stores.testing;

import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleStock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of integration tests on the stores' context ({@link StoresTestConfiguration}) over
 * fresh stores ({@link TestStores}), with the Redis side of a sale at hand: the admission gate, the
 * sale stock, a {@link StoreProbe}, the Redis template and the key names.
 *
 * <p>Every test class gets a context, schema and Redis key prefix of its own, as if it registered
 * {@link TestStores} itself: the inherited property source would make subclasses share one cached
 * context (and see each other's sales, streams and holds), so the context is closed after each
 * class.
 */
@SpringBootTest(classes = StoresTestConfiguration.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public abstract class StoresIntegrationTest {

    @Autowired
    protected AdmissionGate gate;

    @Autowired
    protected SaleStock stock;

    @Autowired
    protected StoreProbe probe;

    @Autowired
    protected StringRedisTemplate redis;

    @Autowired
    protected RedisKeyProperties keys;

    @Autowired
    protected JdbcClient jdbc;

    @DynamicPropertySource
    static void stores(DynamicPropertyRegistry registry) {
        TestStores.register(registry);
    }

    /** Redis loses the sale: every key of it goes ({@link StoreProbe#loseSale}). */
    protected void loseSale(String saleId) {
        new StoreProbe(jdbc, redis, keys).loseSale(saleId);
    }

    /** Loads the sale's stock into Redis and returns the sale. */
    protected Sale loaded(Sale sale) {
        stock.load(sale);
        return sale;
    }
}
