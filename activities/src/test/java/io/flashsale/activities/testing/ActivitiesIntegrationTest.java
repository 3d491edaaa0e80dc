package io.flashsale.activities.testing;

import io.flashsale.stores.testing.StoresIntegrationTest;
import org.springframework.boot.test.context.SpringBootTest;

/** {@link StoresIntegrationTest} on a context that also holds the activity implementations. */
@SpringBootTest(classes = ActivitiesTestConfiguration.class)
public abstract class ActivitiesIntegrationTest extends StoresIntegrationTest {}
