package io.flashsale.api.audit;

import io.flashsale.stores.audit.AuditConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The invariant audit (MySQL, Redis, Temporal) behind the admin audit endpoints. */
@Configuration(proxyBeanMethods = false)
@Import(AuditConfiguration.class)
class AuditApiConfiguration {}
