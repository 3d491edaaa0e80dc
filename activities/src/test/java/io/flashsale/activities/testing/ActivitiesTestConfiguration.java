package io.flashsale.activities.testing;

import io.flashsale.activities.ActivitiesConfiguration;
import io.flashsale.stores.testing.StoresTestConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The stores' test context plus the activity implementations. */
@Configuration(proxyBeanMethods = false)
@Import({StoresTestConfiguration.class, ActivitiesConfiguration.class})
public class ActivitiesTestConfiguration {}
