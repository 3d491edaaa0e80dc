package io.flashsale.bench;

import io.flashsale.testkit.Tokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A sold-out sale of one stack under load (P1, the curve, P5): one unit, sold to a buyer outside the
 * measured ones, then {@value #BUYERS} distinct signed buyers asking for it in rotation, each
 * answered sold-out by the admission script.
 */
record SoldOutLoad(Phases on, HttpLoad.Source purchases) {

    static final int BUYERS = 2000;

    /** Creates the sale {@code sale} on the stack's api and sells its one unit. */
    static SoldOutLoad of(Phases on, String sale) throws Exception {
        Tokens tokens = on.stack().tokens();
        on.admin().createSale(sale, 1, Admin.NOTHING_EXPIRES);
        byte[] owner = on.requests().purchase(sale, tokens.buyer(sale + "owner"), "k-owner");
        Tally sold = TimedLoad.each(on.load(), List.of(owner), 1);
        if (sold.count("admitted") != 1) {
            throw new IllegalStateException("selling out " + sale + " failed: " + sold.counts());
        }
        return new SoldOutLoad(on, TimedLoad.cycle(purchases(on.requests(), tokens, sale, BUYERS)));
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
        return run(duration, on.settings().connections());
    }

    /** The buyers for {@code duration} (or the run's request cap) at {@code connections}. */
    Tally run(Duration duration, int connections) throws Exception {
        return TimedLoad.run(on.load(), purchases, connections, on.settings().maxRequests(), duration);
    }
}
