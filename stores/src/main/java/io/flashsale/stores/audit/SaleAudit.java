package io.flashsale.stores.audit;

import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.stores.sale.SaleStock;
import java.util.List;
import java.util.Optional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The invariant audit (I1-I5 of {@code docs/architecture.md}) of a sale across MySQL, Redis and Temporal, and
 * the repair of a sale's Redis state from MySQL and Temporal facts.
 *
 * <p>The repair refuses ({@link AdmissionsInFlightException}) while the sale's admission stream
 * holds entries, or when an admission lands while it gathers facts: an admitted purchase whose
 * workflow is not started yet has a HELD hold and no workflow, exactly like a leaked hold, and only
 * the relay can tell them apart by starting it. Nothing is overwritten blindly: a hold whose
 * workflow runs stays HELD, a hold becomes HELD only for a PENDING_PAYMENT or PAID order, and the
 * stock is recomputed inside the script as total minus HELD holds.
 */
public class SaleAudit {

    private final SaleRepository sales;
    private final SaleStock stock;
    private final MySqlFacts mysql;
    private final RedisFacts redis;
    private final SaleFactsReader facts;
    private final TransactionTemplate transaction;

    SaleAudit(
            SaleRepository sales,
            SaleStock stock,
            MySqlFacts mysql,
            RedisFacts redis,
            WorkflowFacts temporal,
            TransactionTemplate transaction) {
        this.sales = sales;
        this.transaction = transaction;
        this.stock = stock;
        this.mysql = mysql;
        this.redis = redis;
        this.facts = new SaleFactsReader(mysql, redis, temporal);
    }

    /** Every sale MySQL knows, oldest first. */
    public List<String> saleIds() {
        return mysql.saleIds();
    }

    /**
     * Empty when MySQL does not know the sale. A sale whose Redis side is archived is checked on
     * MySQL alone, and its report says since when.
     */
    public Optional<AuditReport> audit(String saleId) {
        Optional<Sale> sale = sales.find(saleId);
        if (sale.isPresent() && sale.get().redisArchived()) {
            return facts.readArchived(saleId, sale.get().redisArchivedAt()).map(SaleAudit::report);
        }
        return facts.read(saleId).map(SaleAudit::report);
    }

    /**
     * Empty when MySQL does not know the sale.
     *
     * @throws SaleArchivedException the sale's Redis side is archived: there is nothing to repair
     */
    public Optional<RepairReport> repair(String saleId) {
        return sales.find(saleId).map(this::repair);
    }

    private RepairReport repair(Sale sale) {
        String saleId = sale.id();
        if (sale.redisArchived()) {
            throw new SaleArchivedException(saleId);
        }
        RedisSnapshot before = redis.snapshot(saleId);
        if (before.admissionsInFlight()) {
            throw new AdmissionsInFlightException(saleId);
        }
        boolean reloaded = stock.load(sale);
        SaleFacts found = facts.read(saleId, before).orElseThrow();
        RepairPlan plan = RepairPlan.of(found);
        List<?> done = repairHoldingTheSale(saleId, before, plan);
        releaseEndedMeanwhile(saleId, plan);
        String stockBefore = RedisFacts.text(done.get(4));
        return new RepairReport(
                saleId,
                reloaded,
                plan.hold(),
                plan.release(),
                RedisFacts.number(done.get(3)),
                stockBefore.isEmpty() ? null : Long.parseLong(stockBefore),
                RedisFacts.number(done.get(5)),
                audit(saleId).orElseThrow());
    }

    /**
     * Runs repair.lua with the sale's row locked from reading its units until Redis has them: a
     * restock, withdrawal, close or move of the sale waits for the repair, and one that committed
     * while the facts were gathered is in the total and the changes written (its Redis step ran
     * before, a withdrawal's even before its commit, so the facts read earlier may lack it).
     */
    private List<?> repairHoldingTheSale(String saleId, RedisSnapshot before, RepairPlan plan) {
        return transaction.execute(tx -> {
            sales.findForUpdate(saleId);
            MySqlFacts.Snapshot units = mysql.read(saleId).orElseThrow();
            return redis.repair(saleId, units.total(), before, plan.withChanges(units.changes()))
                    .orElseThrow(() -> new AdmissionsInFlightException(saleId));
        });
    }

    /**
     * A purchase made HELD here may have expired or been cancelled after MySQL was read: its
     * workflow's release found no HELD hold. Release it now; release.lua does it at most once.
     */
    private void releaseEndedMeanwhile(String saleId, RepairPlan plan) {
        List<String> stillSold = mysql.read(saleId).orElseThrow().orders().stream()
                .filter(OrderFact::holdsUnit)
                .map(OrderFact::purchaseId)
                .toList();
        plan.hold().stream().filter(id -> !stillSold.contains(id)).forEach(id -> redis.release(saleId, id));
    }

    private static AuditReport report(SaleFacts facts) {
        return AuditReport.of(facts, Invariants.check(facts));
    }
}
