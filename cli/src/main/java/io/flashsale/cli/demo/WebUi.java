package io.flashsale.cli.demo;

import io.flashsale.launcher.Await;
import io.flashsale.launcher.local.LocalCommands;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The Temporal Web UI, where an operator sees each purchase of a sale as a workflow. */
record WebUi(URI base, String namespace) {

    /** The Web UI of the dev server {@code bin/flashsale up} starts. */
    static final String DEFAULT = "http://localhost:${env:TEMPORAL_UI_PORT:-" + LocalCommands.TEMPORAL_UI_PORT + "}";

    /** The workflow list filtered to the sale's purchases: {@code SaleId="<sale>"}. */
    URI purchasesOf(String sale) {
        String query = URLEncoder.encode("SaleId=\"" + sale + "\"", StandardCharsets.UTF_8);
        String root = base.toString().replaceAll("/+$", "");
        return URI.create(root + "/namespaces/" + namespace + "/workflows?query=" + query);
    }

    /** Whether it answers 200 within 3 s. */
    boolean answers() {
        return Await.ok(base.toString(), null);
    }
}
