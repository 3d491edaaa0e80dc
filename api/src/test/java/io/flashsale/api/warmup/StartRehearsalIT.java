package io.flashsale.api.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.testing.ApiIntegrationTest;
import io.temporal.client.WorkflowClient;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The api's integration tests run on Temporal's Java test server, which answers every namespace as
 * registered and would run a rehearsal's starts as real workflows: there is no rehearsal on it. The
 * dev server's refusals are checked end to end (FlashSaleEndToEndIT).
 */
class StartRehearsalIT extends ApiIntegrationTest {

    @Autowired
    WorkflowClient temporal;

    @Test
    void aServerThatKnowsEveryNamespaceGetsNoRehearsal() {
        assertThat(new StartRehearsal(temporal).everyStartIsRefused()).isFalse();
    }
}
