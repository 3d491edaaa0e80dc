package io.flashsale.bench;

import io.flashsale.testkit.Tokens;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * N distinct buyers of one sale, as a flash sale sees them: some retry with the same Idempotency-Key,
 * some click twice (a new key), shuffled. Request {@code i} is sent by user {@code users.get(i)}.
 */
public record Burst(List<byte[]> requests, List<String> users) {

    static final double RETRY_SHARE = 0.05;
    static final double DOUBLE_CLICK_SHARE = 0.05;

    /** Buyers named {@code saleId + userPrefix + i}: another prefix, other buyers of the same sale. */
    public static Burst of(Requests http, Tokens tokens, String saleId, String userPrefix, int buyers, long seed) {
        Random random = new Random(seed);
        List<String[]> plan = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            String user = saleId + userPrefix + i;
            plan.add(new String[] {user, "k1"});
            if (random.nextDouble() < RETRY_SHARE) {
                plan.add(new String[] {user, "k1"});
            }
            if (random.nextDouble() < DOUBLE_CLICK_SHARE) {
                plan.add(new String[] {user, "k2"});
            }
        }
        Collections.shuffle(plan, random);
        Map<String, String> tokenOf = new HashMap<>();
        List<byte[]> requests = new ArrayList<>();
        List<String> users = new ArrayList<>();
        for (String[] click : plan) {
            String token = tokenOf.computeIfAbsent(click[0], tokens::buyer);
            requests.add(http.purchase(saleId, token, click[1] + "-" + click[0]));
            users.add(click[0]);
        }
        return new Burst(List.copyOf(requests), List.copyOf(users));
    }

    public int size() {
        return requests.size();
    }

    public String user(int id) {
        return users.get(id);
    }

    /** A tally that knows the user behind each request (to count users admitted twice). */
    public Tally newTally() {
        return new Tally(users::get);
    }
}
