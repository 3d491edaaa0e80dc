package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void readsTheMetricOfAnAggregatedRate() {
        assertThat(PromQl.metricNames("sum by (outcome) (rate(flashsale_admissions_total[$__rate_interval]))"))
                .containsExactly("flashsale_admissions_total");
    }

    @Test
    void skipsLabelMatchersGroupingListsAndNumbers() {
        String p99 = "histogram_quantile(0.99, sum by (task_queue, le) "
                + "(rate(temporal_activity_schedule_to_start_latency_seconds_bucket{le!=\"+Inf\", job=~\"worker|api\"}[5m]))"
                + ") > 1e3";

        assertThat(PromQl.metricNames(p99))
                .containsExactly("temporal_activity_schedule_to_start_latency_seconds_bucket");
    }

    @Test
    void readsEveryOperandOfBinaryOperatorsAndOffsets() {
        String expression = "(x_total{status=\"REJECTED\"} unless x_total offset 10m) or increase(y_total[10m])"
                + " / on () group_left (sale) (max without (instance) (z) or vector(0)) and up == bool 0";

        assertThat(PromQl.metricNames(expression)).containsExactly("up", "x_total", "y_total", "z");
    }
}
