package io.flashsale.launcher.local;

import io.flashsale.launcher.PrivateStores;
import io.lettuce.core.RedisURI;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/flashsale reset}: SCAN and UNLINK of the prefix's keys only, nothing else of that Redis. */
@Command(
        name = "reset",
        mixinStandardHelpOptions = true,
        description = "Delete the dev data to start over: the MySQL schema of MYSQL_URL, the Redis keys"
                + " FLASHSALE_REDIS_PREFIX:* (nothing else of that Redis) and the dev Temporal's .run/temporal.db."
                + " Refused while a process 'up' started runs.")
final class Reset implements Callable<Integer> {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_:.-]{1,40}");

    @Option(names = "--yes", description = "Do not ask to type yes first.")
    boolean yes;

    private LocalConfig config;
    private Map<String, String> env;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            config = LocalCommands.config();
            env = System.getenv();
            run();
            return 0;
        });
    }

    private void run() throws Exception {
        refuseWhileRunning();
        if (!env.getOrDefault("REDIS_CLUSTER_NODES", "").isBlank()) {
            throw new Refused("reset: works on the single Redis of REDIS_URL, not on REDIS_CLUSTER_NODES");
        }
        PrivateStores stores = PrivateStores.configured(env);
        if (!PLAIN.matcher(stores.schema()).matches()) {
            throw new Refused("reset: MYSQL_URL names no plain database (jdbc:mysql://HOST[:PORT]/DATABASE): '"
                    + stores.schema() + "'");
        }
        String prefix = stores.redisPrefix();
        if (!PREFIX.matcher(prefix).matches()) {
            throw new Refused("reset: FLASHSALE_REDIS_PREFIX '" + prefix + "' is not a key prefix");
        }
        String server = stores.server();
        RedisURI redisUri = RedisURI.create(stores.redisUrl());
        String redisShown = redisUri.getHost() + ":" + redisUri.getPort() + "/" + redisUri.getDatabase();
        boolean schemaThere = reachable(() -> stores.schemaExists(), "MySQL at " + server + " as " + stores.user());
        long keys = reachable(stores::keys, "Redis at redis://" + redisShown);
        Path temporalDb = config.run().path().resolve("temporal.db");
        List<Path> files = Stream.of("", "-wal", "-shm")
                .map(suffix -> Path.of(temporalDb + suffix))
                .filter(Files::exists)
                .toList();
        String shownDb = config.run().shown(temporalDb);
        String schema = stores.schema();
        if (!schemaThere && keys == 0 && files.isEmpty()) {
            System.out.println("nothing to reset: no schema " + schema + " on " + server + ", no keys " + prefix
                    + ":* on redis://" + redisShown + ", no " + shownDb);
            return;
        }
        System.out.println("bin/flashsale reset deletes the dev data:");
        System.out.println("  MySQL     schema " + schema + " on " + server + (schemaThere ? "" : " (not there)"));
        System.out.println("  Redis     " + keys + " keys " + prefix + ":* on redis://" + redisShown);
        System.out.println("  Temporal  " + shownDb + " (with -wal, -shm): the dev server's workflows"
                + (files.isEmpty() ? " (not there)" : ""));
        if (!yes && !confirmed()) {
            throw new Refused("reset: not confirmed; nothing was deleted");
        }
        if (schemaThere) {
            stores.dropSchema();
            System.out.println("dropped MySQL schema " + schema);
        }
        System.out.println("deleted " + stores.unlinkKeys() + " Redis keys " + prefix + ":*");
        if (!files.isEmpty()) {
            for (Path file : files) {
                Files.delete(file);
            }
            System.out.println("deleted " + shownDb);
        }
        System.out.println("the next 'bin/flashsale up' starts on an empty schema, Redis and Temporal");
    }

    /** What {@code read} finds, refused naming {@code what} when it cannot be reached. */
    private static <T> T reachable(Callable<T> read, String what) {
        try {
            return read.call();
        } catch (Exception e) {
            throw new Refused("reset: cannot reach " + what + ": " + e.getMessage());
        }
    }

    private void refuseWhileRunning() {
        RunFolder run = config.run();
        String running = run.names().stream()
                .flatMap(name -> run.pid(name).map(pid -> name + " (pid " + pid + ")").stream())
                .collect(Collectors.joining(", "));
        if (!running.isEmpty()) {
            throw new Refused(
                    "reset: refused, still running: " + running + "; stop them with 'bin/flashsale down' first");
        }
    }

    private static boolean confirmed() throws IOException {
        System.out.print("Type yes to delete them: ");
        System.out.flush();
        String answer = new BufferedReader(new InputStreamReader(System.in)).readLine();
        System.out.println();
        return "yes".equals(answer);
    }
}
