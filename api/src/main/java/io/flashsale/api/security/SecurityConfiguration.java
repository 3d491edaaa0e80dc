package io.flashsale.api.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flashsale.api.ApiProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Bearer JWT on every {@code /api} call (HS256 or a configured JWK set, see {@link
 * JwtDecoderConfiguration}): {@code sub} is the buyer, scope {@code admin} may manage sales (create,
 * view, close, move, restock, withdraw, audit), scope
 * {@code payments} (the payment service) confirms payments. The provider's webhook carries no token:
 * its HMAC signature is checked by the controller ({@link WebhookSignatures}). Health is open so
 * process supervisors can probe it; its details (components, their errors) only for scope {@code
 * admin} ({@code management.endpoint.health.roles}). Request bodies are capped before any of it runs.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    static final String ADMIN = "SCOPE_admin";
    static final String PAYMENTS = "SCOPE_payments";

    @Bean
    SecurityFilterChain apiSecurity(HttpSecurity http, ProblemAuthenticationHandlers handlers) throws Exception {
        return http.csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(auth -> auth.requestMatchers(
                                "/actuator/health/**",
                                "/actuator/info",
                                "/v3/api-docs/**",
                                "/swagger-ui/**",
                                "/swagger-ui.html")
                        .permitAll()
                        .requestMatchers(HttpMethod.POST, "/api/payments/webhook")
                        .permitAll()
                        .requestMatchers("/api/purchases/*/payment")
                        .hasAuthority(PAYMENTS)
                        // every method: MVC answers HEAD (and OPTIONS) with the GET handler's route
                        .requestMatchers(
                                "/api/sales",
                                "/api/sales/*",
                                "/api/sales/*/audit/**",
                                "/api/sales/*/close",
                                "/api/sales/*/move",
                                "/api/sales/*/restock",
                                "/api/sales/*/withdraw")
                        .hasAuthority(ADMIN)
                        .requestMatchers("/api/**")
                        .authenticated()
                        .anyRequest()
                        .hasAuthority(ADMIN))
                .oauth2ResourceServer(oauth ->
                        oauth.jwt(jwt -> {}).authenticationEntryPoint(handlers).accessDeniedHandler(handlers))
                .exceptionHandling(
                        errors -> errors.authenticationEntryPoint(handlers).accessDeniedHandler(handlers))
                .build();
    }

    /**
     * No observations of the filter chain, authentication or authorization: with any observation
     * registry present, Spring Security otherwise wraps every filter of every request in an
     * observation, on the hot path, for metrics the api does not export.
     */
    @Bean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /** Before Spring Security, so an oversized body is refused before anything reads it. */
    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(ApiProperties properties, ObjectMapper json) {
        var registration = new FilterRegistrationBean<>(new RequestBodyLimitFilter(properties.maxBodySize(), json));
        registration.addUrlPatterns("/api/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
