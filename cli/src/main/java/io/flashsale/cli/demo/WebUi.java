package io.flashsale.cli.demo;

import io.flashsale.launcher.local.LocalCommands;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The Temporal Web UI, where an operator sees each purchase of a sale as a workflow. */
record WebUi(URI base, String namespace) {

    /** The Web UI of the dev server {@code bin/flashsale up} starts. */
    static final String DEFAULT = "http://localhost:${env:TEMPORAL_UI_PORT:-" + LocalCommands.TEMPORAL_UI_PORT + "}";

    private static final Duration PATIENCE = Duration.ofSeconds(2);

    /** The workflow list filtered to the sale's purchases: {@code SaleId="<sale>"}. */
    URI purchasesOf(String sale) {
        String query = URLEncoder.encode("SaleId=\"" + sale + "\"", StandardCharsets.UTF_8);
        String root = base.toString().replaceAll("/+$", "");
        return URI.create(root + "/namespaces/" + namespace + "/workflows?query=" + query);
    }

    /** Whether it answers at all (any status below 500) within 2 s. */
    boolean answers() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(PATIENCE).build();
        try {
            HttpRequest request =
                    HttpRequest.newBuilder(base).timeout(PATIENCE).GET().build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() < 500;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception unreachable) {
            return false;
        }
    }
}
