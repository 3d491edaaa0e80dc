package io.flashsale.api.warmup;

import io.flashsale.api.ApiProperties;
import io.flashsale.api.purchase.StartQueue;
import io.flashsale.stores.sale.SaleStock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The warm-up before readiness ({@link AdmissionWarmup}): on unless {@code
 * flashsale.api.warmup.requests} is 0, and only with the api's own HS256 secret (with an external
 * issuer's keys the api cannot sign a token for its own requests).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("${flashsale.api.warmup.requests:0} > 0")
@ConditionalOnProperty(
        prefix = "spring.security.oauth2.resourceserver.jwt",
        name = {"jwk-set-uri", "issuer-uri", "public-key-location"},
        havingValue = "impossible-value",
        matchIfMissing = true)
class WarmupConfiguration {

    @Bean
    AdmissionWarmup admissionWarmup(
            ApiProperties properties, SaleStock stock, StartQueue starts, WebServerApplicationContext context) {
        return new AdmissionWarmup(properties.warmup(), stock, starts, new WarmupTokens(properties.jwt()), context);
    }
}
