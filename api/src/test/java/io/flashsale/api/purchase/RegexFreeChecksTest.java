package io.flashsale.api.purchase;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.api.problem.IdempotencyKeys;
import io.flashsale.api.problem.ProblemException;
import io.flashsale.api.sale.SaleIds;
import io.flashsale.api.security.Buyer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * The checks every purchase runs without a regular expression (the route, the sale id, the
 * Idempotency-Key, the token's subject) answer as the patterns the OpenAPI description and the
 * refusals state: on the edges and on
 * 20,000 strings of a seeded generator drawn from the allowed characters, a few others and the
 * lengths around each limit.
 */
class RegexFreeChecksTest {

    private static final String ALPHABET = "aZ09_.:-/ #%éAz";

    @Test
    void idempotencyKeysAreCheckedAsTheirPatternSays() {
        Pattern pattern = Pattern.compile(IdempotencyKeys.PATTERN);
        for (String key : samples(70, "aZ09._:-")) {
            assertThat(IdempotencyKeys.isValid(key))
                    .as("'%s'", key)
                    .isEqualTo(pattern.matcher(key).matches());
        }
    }

    @Test
    void saleIdsAreCheckedAsTheirPatternSays() {
        Pattern pattern = Pattern.compile(SaleIds.PATTERN);
        for (String id : samples(45, "aZ09_")) {
            assertThat(SaleIds.requireValid(id).isPresent())
                    .as("'%s'", id)
                    .isEqualTo(pattern.matcher(id).matches());
        }
    }

    @Test
    void tokenSubjectsAreCheckedAsTheirPatternSays() {
        Pattern pattern = Pattern.compile(Buyer.PATTERN);
        for (String subject : samples(70, "aZ09._@-")) {
            Jwt token = Jwt.withTokenValue("t")
                    .header("alg", "HS256")
                    .subject(subject)
                    .build();
            boolean accepted;
            try {
                accepted = Buyer.of(token).userId().equals(subject);
            } catch (ProblemException refused) {
                accepted = false;
            }
            assertThat(accepted)
                    .as("'%s'", subject)
                    .isEqualTo(pattern.matcher(subject).matches());
        }
    }

    @Test
    void thePurchaseRouteIsMatchedAsItsPatternSays() {
        Pattern route = Pattern.compile("/api/sales/([^/]*)/purchases");
        List<String> paths = new ArrayList<>(List.of(
                "/api/sales/s1/purchases",
                "/api/sales//purchases",
                "/api/sales/purchases",
                "/api/sales/a/b/purchases",
                "/api/sales/s1/purchases/",
                "/api/sales/s1/purchasesx",
                "x/api/sales/s1/purchases"));
        for (String id : samples(12, "aZ09_/")) {
            paths.add("/api/sales/" + id + "/purchases");
        }
        for (String path : paths) {
            Matcher matcher = route.matcher(path);
            Optional<String> expected = matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
            assertThat(Optional.ofNullable(PurchaseEndpoint.saleIdOf(path)))
                    .as("'%s'", path)
                    .isEqualTo(expected);
        }
    }

    /**
     * The empty string and 20,000 strings of up to {@code maxLength} characters: half of them of
     * {@code allowed} only, half of {@link #ALPHABET}, which has others too.
     */
    private static List<String> samples(int maxLength, String allowed) {
        Random random = new Random(7);
        List<String> samples = new ArrayList<>(List.of(""));
        for (int i = 0; i < 20_000; i++) {
            int length = random.nextInt(maxLength + 1);
            String characters = i % 2 == 0 ? allowed : ALPHABET;
            StringBuilder sample = new StringBuilder();
            for (int c = 0; c < length; c++) {
                sample.append(characters.charAt(random.nextInt(characters.length())));
            }
            samples.add(sample.toString());
        }
        return samples;
    }
}
