package io.flashsale.bench;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Raw HTTP/1.1 requests of the api's contract, built once before a run. */
public final class Requests {

    private final String host;

    public Requests(InetSocketAddress address) {
        this.host = address.getHostString() + ":" + address.getPort();
    }

    byte[] purchase(String saleId, String token, String idempotencyKey) {
        return bytes("POST", "/api/sales/" + saleId + "/purchases", token, "Idempotency-Key: " + idempotencyKey, "");
    }

    byte[] liveness() {
        return bytes("GET", "/actuator/health/liveness", null, null, null);
    }

    private byte[] bytes(String method, String path, String token, String extraHeader, String body) {
        StringBuilder text = new StringBuilder(512)
                .append(method)
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\nHost: ")
                .append(host)
                .append("\r\n");
        if (token != null) {
            text.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        if (extraHeader != null) {
            text.append(extraHeader).append("\r\n");
        }
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            text.append("Content-Length: ").append(content.length).append("\r\n");
        }
        text.append("\r\n").append(body == null ? "" : body);
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
