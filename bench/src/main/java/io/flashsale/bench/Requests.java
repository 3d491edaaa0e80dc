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
        return bytes(
                "POST /api/sales/" + saleId + "/purchases",
                "Authorization: Bearer " + token + "\r\nIdempotency-Key: " + idempotencyKey
                        + "\r\nContent-Length: 0\r\n");
    }

    byte[] liveness() {
        return bytes("GET /actuator/health/liveness", "");
    }

    /** {@code headers}: each line with its CRLF. */
    private byte[] bytes(String requestLine, String headers) {
        return (requestLine + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
