package io.flashsale.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The probes of every process the launcher awaits: a port that takes connections, a GET answered 200. */
public final class Http {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private Http() {}

    /** Whether something takes connections on {@code host:port} (within 2 s). */
    public static boolean listening(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host.replace("[", "").replace("]", ""), port), 2000);
            return true;
        } catch (IOException nothing) {
            return false;
        }
    }

    /** Whether the app on {@code port} answers UP on {@code /actuator/health}. */
    public static boolean healthy(int port) {
        return ok("http://127.0.0.1:" + port + "/actuator/health", "\"status\":\"UP\"");
    }

    /** Whether {@code url} answers 200 within 3 s, its body holding {@code bodyHolds} unless that is null. */
    public static boolean ok(String url, String bodyHolds) {
        try {
            HttpResponse<String> response = CLIENT.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200
                    && (bodyHolds == null || response.body().contains(bodyHolds));
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
