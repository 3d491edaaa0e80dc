package io.flashsale.workflows;

import io.temporal.common.SearchAttributeKey;
import java.util.List;

/**
 * Custom search attributes of a purchase, so operators can find one in the Temporal Web UI by sale,
 * user or status. Every Temporal namespace the system runs on must have them registered (the dev
 * launcher and the docker stack do it).
 */
public final class PurchaseSearchAttributes {

    public static final SearchAttributeKey<String> SALE_ID = SearchAttributeKey.forKeyword("SaleId");
    public static final SearchAttributeKey<String> USER_ID = SearchAttributeKey.forKeyword("UserId");
    public static final SearchAttributeKey<String> STATUS = SearchAttributeKey.forKeyword("PurchaseStatus");

    private PurchaseSearchAttributes() {}

    public static List<SearchAttributeKey<String>> all() {
        return List.of(SALE_ID, USER_ID, STATUS);
    }
}
