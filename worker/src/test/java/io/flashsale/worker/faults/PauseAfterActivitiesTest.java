package io.flashsale.worker.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flashsale.workflows.purchase.OrderActivities;
import io.flashsale.workflows.purchase.ReservationActivities;
import java.util.List;
import org.junit.jupiter.api.Test;

class PauseAfterActivitiesTest {

    private static final List<Class<?>> PURCHASE_ACTIVITIES =
            List.of(ReservationActivities.class, OrderActivities.class);

    @Test
    void armsTheNamedActivityTypes() {
        PauseAfterActivities pause =
                new PauseAfterActivities(List.of("CreateOrder", "ReleaseReservation"), PURCHASE_ACTIVITIES);

        assertThat(pause.activityTypes()).containsExactlyInAnyOrder("CreateOrder", "ReleaseReservation");
    }

    @Test
    void refusesANameThatIsNoActivityTypeAndSaysWhichAreKnown() {
        assertThatThrownBy(() -> new PauseAfterActivities(List.of("CreateOrder", "createOrderr"), PURCHASE_ACTIVITIES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[createOrderr]")
                .hasMessageContaining("ConfirmReservation")
                .hasMessageContaining("MarkPaid");
    }
}
