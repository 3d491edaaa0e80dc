package io.flashsale.api;

import io.flashsale.stores.StoreConfiguration;
import io.flashsale.stores.health.HealthConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The stores (MySQL, Redis) and the health of Temporal. Imported here rather than on {@link
 * ApiApplication}: a test slice ({@code @WebMvcTest}) starts from the application class and would
 * otherwise need MySQL, Redis and Temporal to test a controller.
 */
@Configuration(proxyBeanMethods = false)
@Import({StoreConfiguration.class, HealthConfiguration.class})
class StoresConfiguration {}
