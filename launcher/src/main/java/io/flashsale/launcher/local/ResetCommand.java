package io.flashsale.launcher.local;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "reset",
        mixinStandardHelpOptions = true,
        description = "Delete the dev data to start over: the MySQL schema of MYSQL_URL, the Redis keys"
                + " FLASHSALE_REDIS_PREFIX:* (nothing else of that Redis) and the dev Temporal's .run/temporal.db."
                + " Refused while a process 'up' started runs.")
final class ResetCommand implements Callable<Integer> {

    @Option(names = "--yes", description = "Do not ask to type yes first.")
    boolean yes;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            new Reset(LocalCommands.config(), System.getenv()).run(yes);
            return 0;
        });
    }
}
