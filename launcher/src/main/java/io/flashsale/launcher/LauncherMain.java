package io.flashsale.launcher;

import io.flashsale.launcher.cluster.ClusterMain;
import io.flashsale.launcher.temporal.DevTemporalMain;
import java.util.Set;

/**
 * {@code java -jar launcher-exec.jar COMMAND ...}: the dev Temporal's commands ({@link
 * DevTemporalMain}) and the Temporal cluster's ({@link ClusterMain}), for {@code bin/flashsale}.
 */
public final class LauncherMain {

    private static final Set<String> CLUSTER = Set.of("prepare", "ready", "metrics");

    private LauncherMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && CLUSTER.contains(args[0])) {
            ClusterMain.main(args);
        } else {
            DevTemporalMain.main(args);
        }
    }
}
