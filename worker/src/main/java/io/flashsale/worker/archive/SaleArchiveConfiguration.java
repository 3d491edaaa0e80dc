package io.flashsale.worker.archive;

import io.flashsale.stores.sale.SaleArchive;
import io.flashsale.stores.sale.SaleRepository;
import io.flashsale.worker.WorkerProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class SaleArchiveConfiguration {

    @Bean
    @ConditionalOnProperty(name = "flashsale.worker.archive.enabled", havingValue = "true", matchIfMissing = true)
    SaleArchiver saleArchiver(
            SaleRepository sales, SaleArchive archive, WorkerProperties properties, MeterRegistry meters) {
        return new SaleArchiver(sales, archive, properties.archive(), meters);
    }
}
