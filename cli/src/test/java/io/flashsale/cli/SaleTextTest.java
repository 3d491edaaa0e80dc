package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SaleTextTest {

    private static final Instant NOW = Instant.parse("2030-01-01T10:30:00Z");

    @Test
    void printsTheSaleItsUnitsOrdersAndChangesOldestFirst() throws Exception {
        JsonNode sale = json(
                """
                {"id":"phone1","name":"Phone","total":118,"available":90,"startsAt":"2030-01-01T10:00:00Z",
                 "endsAt":"2030-01-01T11:00:00Z","payTimeout":"PT15M","price":{"amountMinor":19900,"currency":"EUR"},
                 "redisStock":89,"pendingPayment":3,"paid":25,"expired":1,"cancelled":0,"redisArchivedAt":null,
                 "changes":[
                  {"kind":"RESTOCK","key":"r1","unitsAsked":20,"units":20,"changedBy":"ops","changedAt":"2030-01-01T10:05:00Z"},
                  {"kind":"WITHDRAW","key":"w1","unitsAsked":5,"units":-2,"changedBy":"ops","changedAt":"2030-01-01T10:06:00Z"},
                  {"kind":"MOVE","startsAt":"2030-01-01T10:00:00Z","endsAt":"2030-01-01T11:00:00Z","changedBy":"amy","changedAt":"2030-01-01T10:07:00Z"}]}
                """);

        assertThat(SaleText.of(sale, NOW).lines())
                .containsExactly(
                        "sale      phone1 (Phone), 19900 EUR a unit, pay within PT15M",
                        "window    2030-01-01T10:00:00Z to 2030-01-01T11:00:00Z: open",
                        "units     total 118, available 90, Redis 89",
                        "orders    PENDING_PAYMENT 3, PAID 25, EXPIRED 1, CANCELLED 0",
                        "changes   2030-01-01T10:05:00Z  ops  RESTOCK +20 (key r1)",
                        "          2030-01-01T10:06:00Z  ops  WITHDRAW -2 of 5 asked (key w1)",
                        "          2030-01-01T10:07:00Z  amy  MOVE, window 2030-01-01T10:00:00Z to 2030-01-01T11:00:00Z");
    }

    @Test
    void saysWhetherTheSaleIsOpenNotYetOpenClosedOrArchived() throws Exception {
        assertThat(SaleText.state(json("{}"), NOW)).isEqualTo("open");
        assertThat(SaleText.state(json("{\"startsAt\":\"2030-01-01T11:00:00Z\"}"), NOW))
                .isEqualTo("not open yet");
        assertThat(SaleText.state(json("{\"endsAt\":\"2030-01-01T10:30:00Z\"}"), NOW))
                .isEqualTo("closed");
        assertThat(SaleText.state(json("{\"redisArchivedAt\":\"2030-01-01T09:00:00Z\"}"), NOW))
                .isEqualTo("archived");
    }

    @Test
    void printsASaleWithoutWindowRedisStockOrChangesInOneRow() throws Exception {
        JsonNode sale = json(
                """
                {"id":"s1","name":"x","total":5,"available":5,"redisStock":null,"endsAt":"2030-01-01T10:00:00Z","pendingPayment":0,"paid":0,
                 "expired":0,"cancelled":0,"changes":[{"kind":"CLOSE","key":"#close","units":0,
                 "endsAt":"2030-01-01T10:00:00Z","changedBy":"ops","changedAt":"2030-01-01T10:00:00Z"}]}
                """);

        assertThat(SaleText.row(sale, NOW).split(" +"))
                .containsExactly("s1", "closed", "5", "5", "-", "0", "0", "0", "0\n");
        assertThat(SaleText.of(sale, NOW))
                .contains("window    creation to 2030-01-01T10:00:00Z: closed")
                .contains("units     total 5, available 5, Redis -")
                .contains("ops  CLOSE, ends 2030-01-01T10:00:00Z");
    }

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }
}
