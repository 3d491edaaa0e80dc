package io.flashsale.bench;

import io.flashsale.testkit.ApiClient;
import io.flashsale.testkit.Tokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A sold-out sale of one stack under load (P1, P5): one unit, sold to a buyer outside the measured
 * ones, then {@value #BUYERS} distinct signed buyers asking for it in rotation, each answered
 * sold-out by the admission script.
 */
final class SoldOutLoad {

    static final int BUYERS = 2000;

    private final HttpLoad load;
    private final HttpLoad.Source purchases;
    private final Settings settings;

    private SoldOutLoad(HttpLoad load, HttpLoad.Source purchases, Settings settings) {
        this.load = load;
        this.purchases = purchases;
        this.settings = settings;
    }

    /** Creates the sale {@code sale} on the stack's api and sells its one unit. */
    static SoldOutLoad on(Stack stack, Settings settings, String sale) throws Exception {
        Tokens tokens = stack.tokens();
        Admin admin = new Admin(new ApiClient(stack.api()), tokens);
        Requests requests = new Requests(admin.address());
        HttpLoad load = new HttpLoad(admin.address());
        admin.createSale(sale, 1, Admin.NOTHING_EXPIRES);
        sellOut(load, requests.purchase(sale, tokens.buyer(sale + "owner"), "k-owner"), sale);
        return new SoldOutLoad(load, TimedLoad.cycle(purchases(requests, tokens, sale, BUYERS)), settings);
    }

    /** The user of {@link #purchases}' request {@code i}. */
    static String user(String sale, int i) {
        return sale + "u" + i;
    }

    /** The purchase requests of {@code users} buyers {@code <sale>u<i>}, each with a key of its own. */
    static List<byte[]> purchases(Requests requests, Tokens tokens, String sale, int users) {
        List<byte[]> purchases = new ArrayList<>();
        for (int i = 0; i < users; i++) {
            String user = user(sale, i);
            purchases.add(requests.purchase(sale, tokens.buyer(user), "k-" + user));
        }
        return purchases;
    }

    /** The buyers for {@code duration} (or the run's request cap) at the run's connections. */
    Tally run(Duration duration) throws Exception {
        return run(duration, settings.connections());
    }

    /** The buyers for {@code duration} (or the run's request cap) at {@code connections}. */
    Tally run(Duration duration, int connections) throws Exception {
        return TimedLoad.run(load, purchases, settings.withConnections(connections), duration);
    }

    private static void sellOut(HttpLoad load, byte[] ownerPurchase, String sale) throws Exception {
        Iterator<byte[]> one = List.of(ownerPurchase).iterator();
        Tally tally = new Tally(null);
        load.run(1, () -> one.hasNext() ? new HttpLoad.Request(0, one.next()) : null, tally, Long.MAX_VALUE);
        if (tally.count("admitted") != 1) {
            throw new IllegalStateException("selling out " + sale + " failed: " + tally.counts());
        }
    }
}
