package io.flashsale.stores.audit;

import io.flashsale.stores.LuaScripts;
import io.flashsale.stores.RedisKeyProperties;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The audit's repair on the real stores with Temporal's answers supplied by the test: which
 * purchases run, and something that happens at the worst moment, after MySQL's facts were read and
 * before the repair script writes Redis (the second look at a running purchase that has no order).
 */
public final class SaleAuditProbe {

    private SaleAuditProbe() {}

    /** The stores a repair needs. */
    public record Stores(
            JdbcClient jdbc,
            StringRedisTemplate redis,
            RedisKeyProperties keys,
            SaleRepository sales,
            SaleStock stock,
            PlatformTransactionManager transactions) {}

    /**
     * @param running whether the purchase's workflow runs (awaiting payment); otherwise it is closed
     * @param meanwhile runs once, at the worst moment, if a running purchase without order exists
     * @return {@code OK <stock after>}, {@code IN_FLIGHT} or {@code ARCHIVED}
     */
    public static String repair(Stores stores, String saleId, Predicate<String> running, Runnable meanwhile) {
        try {
            return "OK "
                    + audit(stores, running, meanwhile)
                            .repair(saleId)
                            .orElseThrow()
                            .stockAfter();
        } catch (AdmissionsInFlightException inFlight) {
            return "IN_FLIGHT";
        } catch (SaleArchivedException archived) {
            return "ARCHIVED";
        }
    }

    private static SaleAudit audit(Stores stores, Predicate<String> running, Runnable meanwhile) {
        RedisFacts redisFacts = new RedisFacts(
                stores.redis(),
                stores.keys(),
                LuaScripts.load("audit_snapshot", List.class),
                LuaScripts.load("repair", List.class),
                LuaScripts.load("release", Long.class));
        return new SaleAudit(
                stores.sales(),
                stores.stock(),
                new MySqlFacts(stores.jdbc(), stores.transactions()),
                redisFacts,
                new ScriptedWorkflows(running, meanwhile),
                new TransactionTemplate(stores.transactions()));
    }

    private static final class ScriptedWorkflows extends WorkflowFacts {

        private final Predicate<String> running;
        private final Map<String, Integer> looks = new HashMap<>();
        private Runnable meanwhile;

        ScriptedWorkflows(Predicate<String> running, Runnable meanwhile) {
            super(null);
            this.running = running;
            this.meanwhile = meanwhile;
        }

        @Override
        Described describe(String purchaseId) {
            if (looks.merge(purchaseId, 1, Integer::sum) == 2 && meanwhile != null) {
                Runnable once = meanwhile;
                meanwhile = null;
                once.run();
            }
            return running.test(purchaseId)
                    ? new Described(WorkflowState.RUNNING, true)
                    : new Described(WorkflowState.CLOSED, false);
        }
    }
}
