package io.flashsale.bench;

import io.flashsale.testkit.Tokens;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

/** Raw HTTP/1.1 requests of the api's contract, built once before a run. */
public record Requests(String host) {

    /** Buyers' requests as a flash sale sees them; request {@code i} is sent by user {@code users.get(i)}. */
    public record Burst(List<byte[]> requests, List<String> users) {}

    public Requests(InetSocketAddress address) {
        this(address.getHostString() + ":" + address.getPort());
    }

    byte[] purchase(String saleId, String token, String idempotencyKey) {
        return bytes(
                "POST /api/sales/" + saleId + "/purchases",
                "Authorization: Bearer " + token + "\r\nIdempotency-Key: " + idempotencyKey
                        + "\r\nContent-Length: 0\r\n");
    }

    /** One purchase of each of {@code buyers} buyers named {@code sale + "u" + i}, each with a key of its own. */
    Burst purchases(Tokens tokens, String sale, int buyers) {
        List<String> users =
                IntStream.range(0, buyers).mapToObj(i -> sale + "u" + i).toList();
        return new Burst(
                users.stream()
                        .map(u -> purchase(sale, tokens.buyer(u), "k-" + u))
                        .toList(),
                users);
    }

    /** {@code buyers} buyers named {@code saleId + userPrefix + i}, shuffled; 5 % retry, 5 % click twice. */
    public Burst burst(Tokens tokens, String saleId, String userPrefix, int buyers, long seed) {
        Random random = new Random(seed);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            String user = saleId + userPrefix + i;
            keys.add("k1-" + user);
            if (random.nextDouble() < 0.05) {
                keys.add("k1-" + user);
            }
            if (random.nextDouble() < 0.05) {
                keys.add("k2-" + user);
            }
        }
        Collections.shuffle(keys, random);
        List<String> users = keys.stream().map(key -> key.substring(3)).toList();
        Map<String, String> tokenOf = new HashMap<>();
        return new Burst(
                IntStream.range(0, keys.size())
                        .mapToObj(i ->
                                purchase(saleId, tokenOf.computeIfAbsent(users.get(i), tokens::buyer), keys.get(i)))
                        .toList(),
                users);
    }

    byte[] liveness() {
        return bytes("GET /actuator/health/liveness", "");
    }

    private byte[] bytes(String requestLine, String headers) {
        return (requestLine + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers + "\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }
}
