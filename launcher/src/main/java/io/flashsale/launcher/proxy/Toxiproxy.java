package io.flashsale.launcher.proxy;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.Toxic;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.GoTool;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The project's one TCP proxy, Shopify's Toxiproxy (built from its Go module into {@code .tools/}):
 * one proxy a link on a free loopback port, faults put on it through Toxiproxy's Java client.
 */
public record Toxiproxy(ToxiproxyClient client) {

    private static final String MODULE = "github.com/Shopify/toxiproxy/v2@v2.12.0";

    /** The faults {@link #breakLink} puts on a link. */
    public static final List<String> FAULTS = List.of("latency", "timeout", "slow_close", "cut");

    /** Builds the server when missing, starts it as {@code toxiproxy} among {@code processes}, waits for its API. */
    public static Toxiproxy start(Processes processes, Path projectRoot) throws Exception {
        Path binary = GoTool.inModule(projectRoot, "toxiproxy", MODULE, List.of("./cmd/server"), System.out::println)
                .program("server")
                .orElseThrow(() -> new IllegalStateException("cannot build " + MODULE + " (needs go)"));
        int port = FreePorts.next();
        processes.start("toxiproxy", List.of(binary.toString(), "-host", "127.0.0.1", "-port", "" + port));
        processes.awaitLog("toxiproxy", "Starting Toxiproxy HTTP server");
        return new Toxiproxy(new ToxiproxyClient("127.0.0.1", port));
    }

    /** A proxy named {@code name} to {@code upstream} ({@code host:port}); returns the port it listens on. */
    public int proxy(String name, String upstream) throws IOException {
        int port = FreePorts.next();
        client.createProxy(name, "127.0.0.1:" + port, upstream);
        return port;
    }

    /**
     * Puts {@code fault} on the replies of {@code link}: 400 ± 200 ms late, stalled and closed after
     * 2 s, closes held back 3 s, or cut (connections closed, new ones refused); returns {@link #state}.
     */
    public String breakLink(String link, String fault) throws IOException {
        Proxy proxy = client.getProxy(link);
        switch (fault) {
            case "latency" -> proxy.toxics()
                    .latency(fault, ToxicDirection.DOWNSTREAM, 400)
                    .setJitter(200);
            case "timeout" -> proxy.toxics().timeout(fault, ToxicDirection.DOWNSTREAM, 2000);
            case "slow_close" -> proxy.toxics().slowClose(fault, ToxicDirection.DOWNSTREAM, 3000);
            case "cut" -> proxy.disable();
            default -> throw new IllegalArgumentException("no network fault " + fault);
        }
        return state(link);
    }

    /** Takes {@code fault} off {@code link} again; returns what Toxiproxy then reports of it. */
    public String healLink(String link, String fault) throws IOException {
        if (fault.equals("cut")) {
            client.getProxy(link).enable();
        } else {
            client.getProxy(link).toxics().get(fault).remove();
        }
        return state(link);
    }

    /** Every reply on {@code link} {@code delay} late, in order (e.g. a replica's replication stream). */
    public void delay(String link, Duration delay) throws IOException {
        client.getProxy(link).toxics().latency("delay", ToxicDirection.DOWNSTREAM, delay.toMillis());
    }

    /** What Toxiproxy reports of {@code link}: {@code enabled} or {@code disabled}, then its toxics. */
    public String state(String link) throws IOException {
        Proxy proxy = client.getProxy(link);
        List<String> toxics =
                proxy.toxics().getAll().stream().map(Toxic::getName).toList();
        return (proxy.isEnabled() ? "enabled" : "disabled") + " " + toxics;
    }
}
