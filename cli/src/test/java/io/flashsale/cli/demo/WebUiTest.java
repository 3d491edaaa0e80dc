package io.flashsale.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flashsale.testkit.FreePorts;
import java.net.URI;
import org.junit.jupiter.api.Test;

class WebUiTest {

    @Test
    void listsTheSalesPurchasesWithAnEncodedSaleIdQuery() {
        WebUi ui = new WebUi(URI.create("http://localhost:8233/"), "default");

        assertThat(ui.purchasesOf("demo1abc"))
                .hasToString("http://localhost:8233/namespaces/default/workflows?query=SaleId%3D%22demo1abc%22");
    }

    @Test
    void doesNotAnswerWhereNothingListens() throws Exception {
        int port = FreePorts.next();

        assertThat(new WebUi(URI.create("http://127.0.0.1:" + port), "default").answers())
                .isFalse();
    }
}
