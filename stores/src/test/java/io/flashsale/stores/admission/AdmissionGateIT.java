package io.flashsale.stores.admission;

import static io.flashsale.stores.testing.TestAdmissions.admit;
import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.stores.SaleKeys;
import io.flashsale.stores.sale.Sale;
import io.flashsale.stores.testing.Race;
import io.flashsale.stores.testing.StoresIntegrationTest;
import io.flashsale.stores.testing.TestSales;
import io.flashsale.workflows.purchase.PurchaseRequest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AdmissionGateIT extends StoresIntegrationTest {

    /** The n of user {@code u<n>} in a purchase id {@code purchase-<sale>-u<n>}. */
    private static int userNumber(String purchaseId) {
        return Integer.parseInt(purchaseId.substring(purchaseId.lastIndexOf("-u") + 2));
    }

    @Test
    void admitsExactlyAsManyBuyersAsUnitsWhenTwoHundredRequestsRace() throws InterruptedException {
        Sale sale = loaded(TestSales.open(10));
        List<Callable<Admission>> requests = new ArrayList<>();
        for (int user = 0; user < 100; user++) {
            String userId = "u" + user;
            String secondKey = (user % 2 == 0 ? "key-" : "other-") + userId;
            requests.add(() -> admit(gate, sale.id(), userId, "key-" + userId));
            requests.add(() -> admit(gate, sale.id(), userId, secondKey));
        }
        List<Race.Outcome<Admission>> outcomes = Race.run(requests);

        assertThat(outcomes).extracting(Race.Outcome::failure).containsOnlyNulls();
        List<Admission> admissions = outcomes.stream().map(Race.Outcome::value).toList();

        List<Admission> admitted = admissions.stream()
                .filter(a -> a.outcome() == AdmissionOutcome.ADMITTED)
                .toList();
        assertThat(admitted).hasSize(10);
        assertThat(admitted).extracting(Admission::purchaseId).doesNotHaveDuplicates();
        assertThat(admitted).allSatisfy(a -> assertThat(a.entryId()).isNotBlank());
        // each winner's other click: the same key again (even users) or another key (odd users)
        long evenWinners = admitted.stream()
                .filter(a -> userNumber(a.purchaseId()) % 2 == 0)
                .count();
        assertThat(admissions.stream().collect(Collectors.groupingBy(Admission::outcome, Collectors.counting())))
                .isEqualTo(Map.of(
                        AdmissionOutcome.ADMITTED,
                        10L,
                        AdmissionOutcome.SAME_KEY,
                        evenWinners,
                        AdmissionOutcome.ALREADY_PURCHASED,
                        10L - evenWinners,
                        AdmissionOutcome.SOLD_OUT,
                        180L));
        SaleKeys sk = keys.sale(sale.id());
        assertThat(stock.stock(sale.id())).hasValue(0);
        assertThat(probe.heldCount(sale.id())).isEqualTo(10);
        assertThat(redis.opsForHash().size(sk.buyers())).isEqualTo(10);
        assertThat(redis.opsForStream().size(sk.admissions())).isEqualTo(10);
    }

    @Test
    void answersSameKeyWhenTheBuyerRepeatsTheRequest() {
        Sale sale = loaded(TestSales.open(5));
        Admission first = admit(gate, sale.id(), "alice", "k1");

        Admission again = admit(gate, sale.id(), "alice", "k1");

        assertThat(first.outcome()).isEqualTo(AdmissionOutcome.ADMITTED);
        assertThat(first.purchaseId()).isEqualTo(PurchaseRequest.purchaseId(sale.id(), "alice"));
        assertThat(first.payTimeoutSeconds()).isEqualTo(60);
        assertThat(again)
                .isEqualTo(new Admission(AdmissionOutcome.SAME_KEY, first.purchaseId(), 60, null, 0, HoldState.HELD));
        assertThat(stock.stock(sale.id())).hasValue(4);
    }

    @Test
    void answersARepeatWithTheHoldAsRedisHasItNow() {
        Sale sale = loaded(TestSales.open(5));
        Admission first = admit(gate, sale.id(), "carol", "k1");
        redis.opsForHash().put(keys.sale(sale.id()).holds(), first.purchaseId(), HoldState.RELEASED.name());

        Admission released = admit(gate, sale.id(), "carol", "k1");
        redis.opsForHash().delete(keys.sale(sale.id()).holds(), first.purchaseId());
        Admission noHold = admit(gate, sale.id(), "carol", "k1");

        assertThat(released.hold()).isEqualTo(HoldState.RELEASED);
        assertThat(noHold.outcome()).isEqualTo(AdmissionOutcome.SAME_KEY);
        assertThat(noHold.hold()).isNull();
    }

    @Test
    void rejectsSecondPurchaseBySameUser() {
        Sale sale = loaded(TestSales.open(5));
        Admission first = admit(gate, sale.id(), "bob", "k1");

        Admission second = admit(gate, sale.id(), "bob", "k2");

        assertThat(second.outcome()).isEqualTo(AdmissionOutcome.ALREADY_PURCHASED);
        assertThat(second.purchaseId()).isEqualTo(first.purchaseId());
        assertThat(second.entryId()).isNull();
        assertThat(stock.stock(sale.id())).hasValue(4);
    }

    @Test
    void refusesAClosedSaleAndChangesNothing() {
        Sale sale = loaded(TestSales.closed(5));
        Map<String, String> before = snapshot(sale.id());

        Admission admission = admit(gate, sale.id(), "carol", "k1");

        assertThat(admission.outcome()).isEqualTo(AdmissionOutcome.NOT_OPEN);
        assertThat(admission.purchaseId()).isNull();
        assertThat(snapshot(sale.id())).isEqualTo(before);
    }

    @Test
    void refusesASaleNotYetOpenAndChangesNothing() {
        Sale sale = loaded(TestSales.notYetOpen(5));
        Map<String, String> before = snapshot(sale.id());

        assertThat(admit(gate, sale.id(), "dave", "k1").outcome()).isEqualTo(AdmissionOutcome.NOT_OPEN);
        assertThat(snapshot(sale.id())).isEqualTo(before);
    }

    @Test
    void answersSoldOutAndChangesNothingWhenNoUnitIsLeft() {
        Sale sale = loaded(TestSales.open(1));
        admit(gate, sale.id(), "erin", "k1");
        Map<String, String> before = snapshot(sale.id());

        assertThat(admit(gate, sale.id(), "frank", "k1").outcome()).isEqualTo(AdmissionOutcome.SOLD_OUT);
        assertThat(snapshot(sale.id())).isEqualTo(before);
    }

    @Test
    void answersUnknownSaleAndWritesNothing() {
        String saleId = TestSales.newId();

        assertThat(admit(gate, saleId, "gina", "k1").outcome()).isEqualTo(AdmissionOutcome.UNKNOWN_SALE);
        assertThat(snapshot(saleId)).isEmpty();
    }

    @Test
    void recordsTheHoldOfAnAdmittedBuyer() {
        Sale sale = loaded(TestSales.open(2));
        Admission admission = admit(gate, sale.id(), "hank", "k1");

        assertThat(gate.holdState(sale.id(), admission.purchaseId())).hasValue(HoldState.HELD);
        assertThat(gate.holdState(sale.id(), PurchaseRequest.purchaseId(sale.id(), "nobody")))
                .isEmpty();
    }

    /** Every existing key of the sale with its serialized content. */
    private Map<String, String> snapshot(String saleId) {
        return probe.saleKeys(saleId).stream()
                .filter(key -> Boolean.TRUE.equals(redis.hasKey(key)))
                .collect(Collectors.toMap(key -> key, key -> HexFormat.of().formatHex(redis.dump(key))));
    }
}
