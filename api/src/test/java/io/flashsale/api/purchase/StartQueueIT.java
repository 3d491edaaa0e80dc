package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.TestTokens;
import io.flashsale.api.testing.ApiIntegrationTest;
import io.flashsale.stores.admission.Admission;
import io.flashsale.stores.admission.AdmissionGate;
import io.flashsale.stores.testing.TestAdmissions;
import io.flashsale.workflows.TaskQueues;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Tracer;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/** The api's start pipeline, with the api's own starter and gate on the real stores and Temporal. */
class StartQueueIT extends ApiIntegrationTest {

    private static final Duration GIVE_UP_AFTER = Duration.ofMillis(300);

    @Autowired
    PurchaseStarter starter;

    @Autowired
    AdmissionGate gate;

    @Autowired
    WorkflowClient temporal;

    @Autowired
    ApiProperties properties;

    /**
     * An admission that waited longer than the give-up for its start is the relay's: the api leaves
     * it in the sale's stream, so the workflow is started once, by the relay, not twice.
     */
    @Test
    void leavesAnAdmissionThatWaitedLongerThanTheGiveUpToTheRelay() throws InterruptedException {
        String sale = openSale(2);
        String late = newUser();
        String onTime = newUser();
        Admission lateAdmission = TestAdmissions.admit(gate, sale, late, "key-late");
        Thread.sleep(GIVE_UP_AFTER.plusMillis(100).toMillis()); // elapsed time: the late one waited past the give-up
        Admission onTimeAdmission = TestAdmissions.admit(gate, sale, onTime, "key-on-time");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        StartQueue starts = new StartQueue(
                starter, gate, withStarts(properties.starts().concurrency(), GIVE_UP_AFTER), meters, tracer());
        starts.start();

        starts.submit(PurchaseId.of(sale, late), lateAdmission);
        starts.submit(PurchaseId.of(sale, onTime), onTimeAdmission);
        starts.stop();

        awaitStatus(TestTokens.buyer(onTime), PurchaseId.of(sale, onTime).value(), "PENDING_PAYMENT");
        assertThat(api.status(TestTokens.buyer(late), PurchaseId.of(sale, late).value())
                        .field("status"))
                .as("no workflow: answered from the Redis hold")
                .isEqualTo("RESERVED");
        assertThat(stores.snapshot(sale).admissions())
                .as("the late admission still in the stream, for the relay")
                .isEqualTo(1);
        assertThat(meters.counter("flashsale.admissions.deferred.starts", "reason", "waited")
                        .count())
                .isEqualTo(1);
    }

    /**
     * A rehearsal rehearses its first admissions only, and one still queued when the warm-up ended it
     * is dropped unstarted, so a slow Temporal at the api's start cannot keep the start threads
     * from buyers' starts. (Temporal's Java test server cannot delete a run: a rehearsed start
     * stays, on a queue no worker polls; the delete is checked on the dev server, FlashSaleEndToEndIT.)
     */
    @Test
    void rehearsesTheFirstAdmissionsOnlyAndNoneQueuedPastItsEnd() {
        String sale = openSale(2);
        String first = newUser();
        String second = newUser();
        Admission firstAdmission = TestAdmissions.admit(gate, sale, first, "key-first");
        Admission secondAdmission = TestAdmissions.admit(gate, sale, second, "key-second");
        String otherSale = openSale(1);
        Admission ended = TestAdmissions.admit(gate, otherSale, first, "key-ended");
        StartQueue starts = new StartQueue(starter, gate, properties, new SimpleMeterRegistry(), tracer());
        starts.start();

        StartQueue.Rehearsal rehearsal = starts.rehearse(sale, 1);
        StartQueue.Rehearsal endedRehearsal = starts.rehearse(otherSale, 1);
        endedRehearsal.end();
        starts.submit(PurchaseId.of(sale, first), firstAdmission);
        starts.submit(PurchaseId.of(sale, second), secondAdmission);
        starts.submit(PurchaseId.of(otherSale, first), ended);
        starts.stop();

        assertThat(rehearsal.done() + rehearsal.failed()).as("one rehearsed").isEqualTo(1);
        assertThat(taskQueueOf(PurchaseId.of(sale, first))).isEqualTo(TaskQueues.REHEARSAL);
        assertThatThrownBy(() -> taskQueueOf(PurchaseId.of(sale, second)))
                .as("past the rehearsal's starts: never started")
                .isInstanceOf(WorkflowNotFoundException.class);
        assertThat(endedRehearsal.failed()).as("dropped").isEqualTo(1);
        assertThatThrownBy(() -> taskQueueOf(PurchaseId.of(otherSale, first)))
                .as("queued past the rehearsal's end: never started")
                .isInstanceOf(WorkflowNotFoundException.class);
    }

    /**
     * The first failed rehearsal ends it: with Temporal refusing (here the Java test server, which
     * cannot delete a run) the rest would only keep the start threads busy. One start thread, so
     * the second admission's rehearsal runs after the first failed.
     */
    @Test
    void endsARehearsalAtItsFirstFailure() {
        String sale = openSale(2);
        String first = newUser();
        String second = newUser();
        Admission firstAdmission = TestAdmissions.admit(gate, sale, first, "key-first");
        Admission secondAdmission = TestAdmissions.admit(gate, sale, second, "key-second");
        StartQueue starts = new StartQueue(
                starter, gate, withStarts(1, properties.starts().giveUpAfter()), new SimpleMeterRegistry(), tracer());
        starts.start();

        StartQueue.Rehearsal rehearsal = starts.rehearse(sale, 2);
        starts.submit(PurchaseId.of(sale, first), firstAdmission);
        starts.submit(PurchaseId.of(sale, second), secondAdmission);
        starts.stop();

        assertThat(rehearsal.failed()).isEqualTo(2);
        assertThat(taskQueueOf(PurchaseId.of(sale, first)))
                .as("started, its delete refused")
                .isEqualTo(TaskQueues.REHEARSAL);
        assertThatThrownBy(() -> taskQueueOf(PurchaseId.of(sale, second)))
                .as("after the failure: never started")
                .isInstanceOf(WorkflowNotFoundException.class);
    }

    private String taskQueueOf(PurchaseId id) {
        return temporal.newUntypedWorkflowStub(id.value())
                .describe()
                .getRawDescription()
                .getExecutionConfig()
                .getTaskQueue()
                .getName();
    }

    /**
     * The warm-up's sale past its rehearsals: its admissions become no workflow and stay in its
     * stream, uncounted; a buyer's sale beside it starts as ever. (Temporal's Java test server cannot
     * delete a run; the rehearsal itself is checked on the dev server, FlashSaleEndToEndIT.)
     */
    @Test
    void startsNoWorkflowForASaleRehearsedPastItsRehearsals() throws Exception {
        String sale = openSale(1);
        String other = openSale(1);
        String buyer = newUser();
        Admission admission = TestAdmissions.admit(gate, sale, buyer, "key-rehearsed");
        Admission otherAdmission = TestAdmissions.admit(gate, other, buyer, "key-other");
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        StartQueue starts = new StartQueue(starter, gate, properties, meters, tracer());
        starts.start();

        starts.rehearse(sale, 0);
        starts.submit(PurchaseId.of(sale, buyer), admission);
        starts.submit(PurchaseId.of(other, buyer), otherAdmission);
        starts.stop();

        awaitStatus(TestTokens.buyer(buyer), PurchaseId.of(other, buyer).value(), "PENDING_PAYMENT");

        assertThat(stores.snapshot(sale).admissions())
                .as("never started, never forgotten")
                .isEqualTo(1);
        assertThat(api.status(
                                TestTokens.buyer(buyer),
                                PurchaseId.of(sale, buyer).value())
                        .field("status"))
                .as("no workflow: answered from the Redis hold")
                .isEqualTo("RESERVED");
        assertThat(meters.find("flashsale.admissions.deferred.starts").counters())
                .allSatisfy(counter -> assertThat(counter.count()).isZero());
    }

    private ApiProperties withStarts(int concurrency, Duration giveUpAfter) {
        ApiProperties.Starts starts = properties.starts();
        return new ApiProperties(
                properties.jwt(),
                properties.rateLimit(),
                properties.maxBodySize(),
                properties.temporalRetry(),
                properties.commands(),
                properties.payments(),
                properties.soldOutMark(),
                new ApiProperties.Starts(concurrency, starts.queueCapacity(), starts.drainTimeout(), giveUpAfter),
                properties.warmup());
    }

    private static org.springframework.beans.factory.ObjectProvider<Tracer> tracer() {
        return new StaticListableBeanFactory().getBeanProvider(Tracer.class);
    }
}
