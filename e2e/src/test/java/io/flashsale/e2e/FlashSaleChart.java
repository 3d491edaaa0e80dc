package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** deploy/helm/flashsale rendered by {@link Helm}, with the names of the Secrets it requires. */
final class FlashSaleChart {

    static final Path ROOT = Path.of(System.getProperty("flashsale.root", ".."));
    static final Path CHART = ROOT.resolve("deploy/helm/flashsale");
    static final List<String> PRODUCTION =
            List.of("-f", CHART.resolve("values-production.yaml").toString());
    /** The values naming an existing Secret each, with a name as an operator would give it. */
    static final Map<String, String> SECRET_NAMES = new TreeMap<>(Map.of(
            "secrets.jwt.name", "flashsale-jwt",
            "secrets.paymentWebhook.name", "flashsale-payment-webhook",
            "secrets.mysql.name", "flashsale-mysql",
            "secrets.redis.name", "flashsale-redis",
            "secrets.metricsToken.name", "flashsale-metrics-token"));

    private final Helm helm;

    private FlashSaleChart(Helm helm) {
        this.helm = helm;
    }

    static FlashSaleChart build() {
        return new FlashSaleChart(Helm.locateOrBuild(ROOT));
    }

    /** {@code helm lint} with the secrets' names and {@code arguments}. */
    ToolRun lint(List<String> arguments) throws IOException, InterruptedException {
        return helm.lint(CHART, withSecretNames(SECRET_NAMES, arguments));
    }

    /** {@code helm template} of {@code chart} with {@code secretNames} and {@code arguments}. */
    ToolRun template(Path chart, Map<String, String> secretNames, List<String> arguments)
            throws IOException, InterruptedException {
        return helm.template(chart, withSecretNames(secretNames, arguments));
    }

    /** The objects rendered with every secret's name and {@code arguments}; rendering must succeed. */
    RenderedChart render(List<String> arguments) throws IOException, InterruptedException {
        return render(CHART, arguments);
    }

    RenderedChart render(Path chart, List<String> arguments) throws IOException, InterruptedException {
        ToolRun run = template(chart, SECRET_NAMES, arguments);
        assertThat(run.exitCode()).as(run.output()).isZero();
        return RenderedChart.parse(run.output());
    }

    private static List<String> withSecretNames(Map<String, String> secretNames, List<String> arguments) {
        List<String> all = new ArrayList<>(arguments);
        if (!secretNames.isEmpty()) {
            all.add("--set");
            all.add(secretNames.entrySet().stream()
                    .map(name -> name.getKey() + "=" + name.getValue())
                    .collect(Collectors.joining(",")));
        }
        return all;
    }
}
