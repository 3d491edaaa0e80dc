package io.flashsale.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The few admin calls a run makes outside the measured load (JDK HttpClient). */
final class Api {

    private final URI base;
    private final Tokens tokens;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Api(URI base, Tokens tokens) {
        this.base = base;
        this.tokens = tokens;
    }

    InetSocketAddress address() {
        return new InetSocketAddress(base.getHost(), base.getPort());
    }

    /** Creates a sale that opens now; fails unless the api answers 201 or 200. */
    void createSale(String saleId, int units, Duration payTimeout) throws IOException, InterruptedException {
        String body = "{\"id\":\"%s\",\"name\":\"bench %s\",\"stock\":%d,\"payTimeout\":\"%s\"}"
                .formatted(saleId, saleId, units, payTimeout);
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(base.resolve("/api/sales"))
                        .header("Authorization", "Bearer " + tokens.admin())
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201 && response.statusCode() != 200) {
            throw new IllegalStateException(
                    "creating sale " + saleId + ": " + response.statusCode() + " " + response.body());
        }
    }

    boolean healthy() {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(base.resolve("/actuator/health"))
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
