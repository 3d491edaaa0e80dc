package io.flashsale.api.security;

import io.flashsale.api.ApiProperties;
import java.nio.charset.StandardCharsets;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Bearer JWT (HS256) on every {@code /api} call: {@code sub} is the buyer, scope {@code admin} may
 * manage sales. Health is open so process supervisors can probe it.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    static final String ADMIN = "SCOPE_admin";

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
                        .requestMatchers(HttpMethod.POST, "/api/sales")
                        .hasAuthority(ADMIN)
                        .requestMatchers(HttpMethod.GET, "/api/sales/*")
                        .hasAuthority(ADMIN)
                        .requestMatchers("/api/sales", "/api/sales/*/audit/**")
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

    @Bean
    JwtDecoder jwtDecoder(ApiProperties properties) {
        byte[] secret = properties.jwt().secret().getBytes(StandardCharsets.UTF_8);
        return NimbusJwtDecoder.withSecretKey(new SecretKeySpec(secret, "HmacSHA256"))
                .macAlgorithm(MacAlgorithm.HS256)
                .build();
    }
}
