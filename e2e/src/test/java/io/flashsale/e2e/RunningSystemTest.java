package io.flashsale.e2e;

import io.flashsale.bench.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Base of tests against the system as {@link FlashSaleSystem#start()} runs it: each test class
 * starts a system of its own before its first test and stops it after its last. A class marked
 * {@link OwnWorkers} gets one without a worker.
 */
abstract class RunningSystemTest {

    static FlashSaleSystem system;
    static Api api;

    @RegisterExtension
    static final HistoriesOnFailure histories = new HistoriesOnFailure(() -> system);

    @BeforeAll
    static void startSystem(TestInfo test) throws Exception {
        boolean ownWorkers = test.getTestClass()
                .map(type -> type.isAnnotationPresent(OwnWorkers.class))
                .orElse(false);
        system = ownWorkers ? FlashSaleSystem.startWithoutWorkers() : FlashSaleSystem.start();
        api = new Api(system.api());
    }

    /** Stops the class's system and forgets it, so the next class never sees a stopped one. */
    @AfterAll
    static void stopSystem() throws Exception {
        FlashSaleSystem stopping = system;
        system = null;
        api = null;
        if (stopping != null) {
            stopping.close();
        }
    }
}
