package io.flashsale.stores.admission;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns raw admission stream entries into {@link AdmissionEntry} records. */
final class StreamEntries {

    private StreamEntries() {}

    /** Parses {@code {{id, {field, value, ...}}, ...}} as claim.lua returns it. */
    static List<AdmissionEntry> parse(String saleId, List<?> raw) {
        List<AdmissionEntry> entries = new ArrayList<>();
        for (Object item : raw == null ? List.of() : raw) {
            if (item instanceof List<?> entry && entry.size() == 2 && entry.get(1) instanceof List<?> fields) {
                entries.add(entry(String.valueOf(entry.get(0)), saleId, pairs(fields)));
            }
        }
        return entries;
    }

    static AdmissionEntry entry(String entryId, String saleId, Map<?, ?> fields) {
        Object timeout = fields.get("payTimeoutSeconds");
        return new AdmissionEntry(
                entryId,
                saleId,
                (String) fields.get("purchaseId"),
                (String) fields.get("userId"),
                timeout == null ? 0 : Long.parseLong(timeout.toString()));
    }

    private static Map<String, String> pairs(List<?> fields) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            map.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
        }
        return map;
    }
}
