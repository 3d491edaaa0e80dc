package io.flashsale.worker.admission;

import io.flashsale.stores.admission.AdmissionStream;
import io.flashsale.stores.admission.RelaySales;
import io.flashsale.worker.WorkerProperties;
import io.flashsale.workflows.purchase.PurchaseStarter;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class AdmissionRelayConfiguration {

    @Bean
    PurchaseStarter purchaseStarter(WorkflowClient workflowClient) {
        return new PurchaseStarter(workflowClient);
    }

    @Bean
    @ConditionalOnProperty(name = "flashsale.worker.relay.enabled", havingValue = "true", matchIfMissing = true)
    AdmissionRelay admissionRelay(
            AdmissionStream stream,
            RelaySales sales,
            PurchaseStarter starter,
            WorkerProperties properties,
            MeterRegistry meters) {
        return new AdmissionRelay(stream, sales, starter, properties.relay(), meters);
    }
}
