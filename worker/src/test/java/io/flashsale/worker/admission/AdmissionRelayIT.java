package io.flashsale.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.worker.WorkerProperties;
import io.flashsale.worker.purchase.WorkflowIntegrationTest;
import io.flashsale.workflows.purchase.PurchaseRequest;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.flashsale.workflows.purchase.PurchaseStatus;
import io.flashsale.workflows.purchase.PurchaseWorkflow;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.RpcRetryOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.StreamInfo.XInfoConsumer;

/**
 * The relay closes the window "Redis admitted the buyer, then the api died before starting the
 * workflow": buyers pass the real Lua gate only, and the relay starts their workflows on a
 * time-skipping Temporal that runs the real activities.
 */
class AdmissionRelayIT extends WorkflowIntegrationTest {

    @Autowired
    AdmissionStream stream;

    @Autowired
    RelaySales relaySales;

    SimpleMeterRegistry meters;

    @BeforeEach
    void newMeters() {
        meters = new SimpleMeterRegistry();
    }

    @Test
    void startsTheWorkflowOfAnAdmissionTheApiNeverStarted() throws InterruptedException {
        PurchaseRequest alice = admit("alice");

        assertThat(relay("relay-a").relayOnce()).isEqualTo(1);

        awaitPendingPayment(alice);
        assertThat(relayStarts()).isEqualTo(1);
        assertThat(openWorkflows()).isEqualTo(1);
        assertThat(orders()).isEqualTo(1);
        assertThat(entriesLeft()).isZero();
        assertThat(pending()).isZero();
    }

    @Test
    void leavesAnAdmissionYoungerThanTheHandoffToTheApiThatAdmittedIt() throws InterruptedException {
        PurchaseRequest alice = admit("alice");
        AdmissionRelay patient = relay("relay-a", Duration.ofMillis(300), Duration.ofMillis(500));

        assertThat(patient.relayOnce()).as("a pass within the handoff").isZero();
        assertThat(entriesLeft()).isEqualTo(1);
        assertThat(pending()).as("not even read: no consumer owns it").isZero();
        Thread.sleep(600); // elapsed time: the admission grows older than the 500 ms handoff

        assertThat(patient.relayOnce()).isEqualTo(1);
        awaitPendingPayment(alice);
        assertThat(relayStarts()).isEqualTo(1);
        assertThat(entriesLeft()).isZero();
    }

    @Test
    void startsOnlyTheAdmissionsOlderThanTheHandoffAndTheYoungerOnesOnceTheyAreDue() throws InterruptedException {
        PurchaseRequest alice = admit("alice");
        Thread.sleep(600); // elapsed time: alice grows older than the 500 ms handoff, bob will not be
        PurchaseRequest bob = admit("bob");
        AdmissionRelay patient = relay("relay-a", Duration.ofMillis(300), Duration.ofMillis(500));

        assertThat(patient.relayOnce())
                .as("alice only: the api is starting bob")
                .isEqualTo(1);
        awaitPendingPayment(alice);
        assertThat(openWorkflows()).isEqualTo(1);
        assertThat(pending()).as("bob, read with alice and left unstarted").isEqualTo(1);
        Thread.sleep(600); // elapsed time: bob grows older than the handoff

        assertThat(patient.relayOnce()).isEqualTo(1);
        awaitPendingPayment(bob);
        assertThat(relayStarts()).isEqualTo(2);
        assertThat(entriesLeft()).isZero();
        assertThat(pending()).isZero();
    }

    @Test
    void acknowledgesAYoungAdmissionItReadOnceTheApiStartedIt() throws InterruptedException {
        PurchaseRequest alice = admit("alice");
        Thread.sleep(600); // elapsed time: alice grows older than the 500 ms handoff, bob will not be
        PurchaseRequest bob = admit("bob");
        AdmissionRelay patient = relay("relay-a", Duration.ofMillis(300), Duration.ofMillis(500));
        assertThat(patient.relayOnce()).isEqualTo(1);
        assertThat(pending()).isEqualTo(1);

        assertThat(new PurchaseStarter(env.getWorkflowClient()).start(bob)).isTrue();
        redis.opsForStream()
                .delete(keys.sale(sale.id()).admissions(), entryIds().toArray(String[]::new));

        assertThat(patient.relayOnce())
                .as("the stream is empty: nothing due, nothing to start")
                .isZero();
        assertThat(pending())
                .as("bob's entry, deleted by the api, acknowledged")
                .isZero();
        awaitPendingPayment(alice);
        awaitPendingPayment(bob);
        assertThat(relayStarts()).isEqualTo(1);
    }

    @Test
    void finishesOnceWhatADeadRelayReadButNeverAcknowledged() throws Exception {
        PurchaseRequest alice = admit("alice");
        PurchaseRequest bob = admit("bob");
        assertThat(stream.readNew(sale.id(), "dead", 10)).hasSize(2);
        assertThat(relay("relay-a").relayOnce()).isZero();
        Thread.sleep(400); // elapsed time: the dead consumer's entries idle past the relays' 300 ms claim idle

        Race.run(List.of(relay("relay-a")::relayOnce, relay("relay-b")::relayOnce));

        awaitPendingPayment(alice);
        awaitPendingPayment(bob);
        assertThat(relayStarts()).isEqualTo(2);
        assertThat(openWorkflows()).isEqualTo(2);
        assertThat(orders()).isEqualTo(2);
        assertThat(entriesLeft()).isZero();
        assertThat(pending()).isZero();
        assertThat(relay("relay-a").relayOnce()).isZero();
    }

    @Test
    void onlyAcknowledgesAnAdmissionWhoseWorkflowTheApiStarted() throws InterruptedException {
        PurchaseRequest carol = admit("carol");
        assertThat(new PurchaseStarter(env.getWorkflowClient()).start(carol)).isTrue();
        awaitPendingPayment(carol);

        assertThat(relay("relay-a").relayOnce()).isEqualTo(1);

        assertThat(relayStarts()).isZero();
        assertThat(openWorkflows()).isEqualTo(1);
        assertThat(orders()).isEqualTo(1);
        assertThat(status(carol)).isEqualTo(PurchaseStatus.PENDING_PAYMENT);
        assertThat(entriesLeft()).isZero();
        assertThat(pending()).isZero();
    }

    @Test
    void startsTheAdmissionsOfAHealthySaleAfterASaleWhoseKeysRedisLost() throws InterruptedException {
        Sale lost = saleVisitedFirst();
        fixture.admit(lost, "zoe");
        loseSale(lost.id());
        PurchaseRequest alice = admit("alice");

        assertThat(relay("relay-a").relayOnce()).isEqualTo(1);

        awaitPendingPayment(alice);
        assertThat(relayStarts()).isEqualTo(1);
        assertThat(saleErrors(lost)).isZero();
        assertThat(entriesLeft()).isZero();
    }

    @Test
    void countsAnErrorOfOneSaleAndStillStartsTheAdmissionsOfTheNext() throws InterruptedException {
        Sale broken = saleVisitedFirst();
        redis.delete(keys.sale(broken.id()).admissions());
        redis.opsForValue().set(keys.sale(broken.id()).admissions(), "not a stream");
        PurchaseRequest alice = admit("alice");

        try {
            assertThat(relay("relay-a").relayOnce()).isEqualTo(1);

            awaitPendingPayment(alice);
            assertThat(relayStarts()).isEqualTo(1);
            assertThat(saleErrors(broken)).isEqualTo(1);
            assertThat(saleErrors(sale)).isZero();
        } finally {
            redis.delete(keys.sale(broken.id()).admissions());
        }
    }

    @Test
    void reportsTheBacklogAndTheAgeOfTheOldestUnstartedAdmissionPerSale() throws InterruptedException {
        PurchaseRequest alice = admit("alice");
        assertThat(stream.readNew(sale.id(), "dead", 10)).hasSize(1);
        AdmissionRelay relay = relay("relay-a", Duration.ofSeconds(2));
        Thread.sleep(1100); // elapsed time: the admission waits over a second, short of the 2 s claim idle

        assertThat(relay.relayOnce()).isZero();

        assertThat(gauge("flashsale.relay.backlog")).isEqualTo(1);
        assertThat(gauge("flashsale.relay.oldest.age")).isGreaterThanOrEqualTo(1.0);

        Thread.sleep(1000); // elapsed time: now past the 2 s claim idle
        assertThat(relay.relayOnce()).isEqualTo(1);

        awaitPendingPayment(alice);
        assertThat(gauge("flashsale.relay.oldest.age")).isZero();
    }

    @Test
    void reportsTheBacklogWhileEveryStartFails() throws InterruptedException {
        PurchaseRequest alice = admit("alice");
        Thread.sleep(1100); // elapsed time: the admission waits over a second
        WorkflowServiceStubs unreachable = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget("127.0.0.1:1")
                .setRpcRetryOptions(
                        RpcRetryOptions.newBuilder().setMaximumAttempts(1).validateBuildWithDefaults())
                .build());
        try {
            AdmissionRelay cutOff = relay(
                    "relay-a",
                    Duration.ofMillis(300),
                    Duration.ZERO,
                    new PurchaseStarter(WorkflowClient.newInstance(unreachable)));

            assertThat(cutOff.relayOnce()).isZero();

            assertThat(saleErrors(sale)).isEqualTo(1);
            assertThat(gauge("flashsale.relay.backlog")).isEqualTo(1);
            assertThat(gauge("flashsale.relay.oldest.age")).isGreaterThanOrEqualTo(1.0);
        } finally {
            unreachable.shutdownNow();
        }
        assertThat(relay("relay-a").relayOnce())
                .as("the same relay, Temporal back")
                .isEqualTo(1);
        awaitPendingPayment(alice);
    }

    @Test
    void stopsPollingASaleEndedLongerThanTheGraceAgoOnceItsStreamIsEmpty() throws InterruptedException {
        Sale ended = fixture.create(TestSales.closed(3));
        Sale endedWithAdmission = saleVisitedFirst();
        PurchaseRequest late = fixture.admit(endedWithAdmission, "late");
        Instant closed = Instant.now().minusSeconds(60); // it closed since
        redis.opsForHash()
                .put(keys.sale(endedWithAdmission.id()).meta(), "closes", Long.toString(closed.toEpochMilli()));
        relaySales.add(endedWithAdmission.id(), closed);
        AdmissionRelay relay = relay("relay-a");

        assertThat(relay.relayOnce()).isEqualTo(1);

        awaitPendingPayment(late);
        assertThat(visited())
                .doesNotContain(ended.id(), endedWithAdmission.id())
                .contains(sale.id());
        redis.delete(keys.sale(ended.id()).admissions());
        redis.opsForValue().set(keys.sale(ended.id()).admissions(), "not a stream");
        try {
            assertThat(relay.relayOnce()).isZero();
            assertThat(saleErrors(ended)).isZero();
            assertThat(meters.find("flashsale.relay.backlog")
                            .tag("sale", ended.id())
                            .gauge())
                    .isNull();
        } finally {
            redis.delete(keys.sale(ended.id()).admissions());
        }
    }

    @Test
    void keepsVisitingAnOpenSaleWhoseIndexSaysItEndedLongAgo() throws InterruptedException {
        // a move whose index write was lost: the index still has the old end, the sale is open
        relaySales.add(sale.id(), Instant.now().minusSeconds(60));
        AdmissionRelay relay = relay("relay-a");

        assertThat(relay.relayOnce()).isZero();

        assertThat(relaySales.all()).contains(new RelaySales.RelaySale(sale.id(), null));
        PurchaseRequest alice = admit("alice");
        assertThat(relay.relayOnce()).isEqualTo(1);
        awaitPendingPayment(alice);
    }

    @Test
    void removesConsumersOfStoppedRelaysIdleWithNothingPending() throws InterruptedException {
        PurchaseRequest alice = admit("alice");
        assertThat(stream.readNew(sale.id(), "stopped", 10)).hasSize(1);
        Thread.sleep(600); // elapsed time: the stopped consumer idle past the 500 ms consumer idle

        assertThat(relay("relay-a", Duration.ZERO).relayOnce()).isEqualTo(1);

        assertThat(consumers()).containsExactly("relay-a");
        PurchaseRequest bob = admit("bob");
        assertThat(stream.readNew(sale.id(), "stopped-holding-an-entry", 10)).hasSize(1);
        Thread.sleep(600); // elapsed time: idle past the consumer idle too, only its entry keeps it
        assertThat(relay("relay-a", Duration.ofMinutes(1)).relayOnce()).isZero();
        assertThat(consumers()).containsExactlyInAnyOrder("relay-a", "stopped-holding-an-entry");
        assertThat(relay("relay-a", Duration.ZERO).relayOnce()).isEqualTo(1);
        awaitPendingPayment(alice);
        awaitPendingPayment(bob);
    }

    private List<String> consumers() {
        return redis.opsForStream().consumers(keys.sale(sale.id()).admissions(), "relay").stream()
                .map(XInfoConsumer::consumerName)
                .toList();
    }

    private List<String> visited() {
        return relaySales.all().stream().map(RelaySales.RelaySale::id).toList();
    }

    private double gauge(String name) {
        return meters.get(name).tag("sale", sale.id()).gauge().value();
    }

    /** A loaded sale whose id sorts before the test's sale, so a pass visits it first. */
    private Sale saleVisitedFirst() {
        Sale open = TestSales.open(3);
        assertThat("a").isLessThan(sale.id());
        return fixture.create(new Sale(
                "a" + open.id(),
                open.name(),
                open.total(),
                open.available(),
                open.startsAt(),
                open.endsAt(),
                open.payTimeout(),
                open.rateLimits(),
                TestSales.PRICE));
    }

    private double saleErrors(Sale sale) {
        return meters.counter("flashsale.relay.sale.errors", "sale", sale.id()).count();
    }

    /** A relay as the worker builds it, but with a 300 ms claim idle so a dead consumer shows fast. */
    private AdmissionRelay relay(String consumer) {
        return relay(consumer, Duration.ofMillis(300));
    }

    private AdmissionRelay relay(String consumer, Duration claimIdle) {
        return relay(consumer, claimIdle, Duration.ZERO);
    }

    private AdmissionRelay relay(String consumer, Duration claimIdle, Duration handoff) {
        return relay(consumer, claimIdle, handoff, new PurchaseStarter(env.getWorkflowClient()));
    }

    private AdmissionRelay relay(String consumer, Duration claimIdle, Duration handoff, PurchaseStarter starter) {
        var settings = new WorkerProperties.Relay(
                true,
                consumer,
                Duration.ofMillis(50),
                handoff,
                claimIdle,
                10,
                4,
                Duration.ofSeconds(1),
                Duration.ofMillis(500));
        return new AdmissionRelay(stream, relaySales, starter, settings, meters);
    }

    /** Workflows the relays started themselves (not found running already). */
    private double relayStarts() {
        return meters.counter("flashsale.relay.started").count();
    }

    /** Admits through the Lua gate only: the api "dies" before starting the workflow. */
    private PurchaseRequest admit(String userId) {
        return fixture.admit(sale, userId);
    }

    private void awaitPendingPayment(PurchaseRequest request) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (status(request) != PurchaseStatus.PENDING_PAYMENT) {
            assertThat(System.nanoTime()).as("PENDING_PAYMENT within 20 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private PurchaseStatus status(PurchaseRequest request) {
        var workflow = env.getWorkflowClient().newWorkflowStub(PurchaseWorkflow.class, request.purchaseId());
        var view = workflow.status();
        return view == null ? null : view.status();
    }

    private int openWorkflows() {
        return env.getWorkflowServiceStubs()
                .blockingStub()
                .listOpenWorkflowExecutions(ListOpenWorkflowExecutionsRequest.newBuilder()
                        .setNamespace(env.getNamespace())
                        .build())
                .getExecutionsCount();
    }

    private int orders() {
        return fixture.orders(sale);
    }

    private long entriesLeft() {
        return redis.opsForStream().size(keys.sale(sale.id()).admissions());
    }

    private List<String> entryIds() {
        return redis.opsForStream().range(keys.sale(sale.id()).admissions(), Range.unbounded()).stream()
                .map(entry -> entry.getId().getValue())
                .toList();
    }

    private long pending() {
        return redis.opsForStream()
                .pending(keys.sale(sale.id()).admissions(), "relay")
                .getTotalPendingMessages();
    }
}
