package io.flashsale.bench;

import io.flashsale.testkit.Tokens;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

/** Raw HTTP/1.1 requests of the api's contract, built once before a run. */
public record Requests(String host) {

    public Requests(InetSocketAddress address) {
        this(address.getHostString() + ":" + address.getPort());
    }

    byte[] purchase(String saleId, String token, String idempotencyKey) {
        return bytes(
                "POST /api/sales/" + saleId + "/purchases",
                "Authorization: Bearer " + token + "\r\nIdempotency-Key: " + idempotencyKey
                        + "\r\nContent-Length: 0\r\n");
    }

    /** The purchase requests of {@code users} buyers {@link #user}, each with a key of its own. */
    List<byte[]> purchases(Tokens tokens, String sale, int users) {
        return IntStream.range(0, users)
                .mapToObj(i -> purchase(sale, tokens.buyer(user(sale, i)), "k-" + user(sale, i)))
                .toList();
    }

    /** The user of {@link #purchases}' request {@code i}. */
    static String user(String sale, int i) {
        return sale + "u" + i;
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
