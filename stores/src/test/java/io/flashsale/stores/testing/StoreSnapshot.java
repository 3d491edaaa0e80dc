package io.flashsale.stores.testing;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/** What {@link StoreProbe#snapshot} saw; compare two with {@code isEqualTo}. */
public record StoreSnapshot(
        long sales,
        Integer saleAvailable,
        List<String> saleOrders,
        SortedSet<String> redisKeys,
        String stock,
        Map<String, String> buyers,
        Map<String, String> holds,
        Long admissions) {}
