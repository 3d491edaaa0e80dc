package io.flashsale.launcher.local;

import io.flashsale.launcher.PrivateStores;
import io.lettuce.core.RedisURI;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/flashsale reset}: SCAN and UNLINK of the prefix's keys only, nothing else of that Redis. */
@Command(
        name = "reset",
        description = "Delete the dev data to start over: the MySQL schema of MYSQL_URL, the Redis keys"
                + " FLASHSALE_REDIS_PREFIX:* (nothing else of that Redis) and the dev Temporal's .run/temporal.db."
                + " Refused while a process 'up' started runs.")
final class Reset implements Callable<Integer> {

    @Option(names = "--yes", description = "Do not ask to type yes first.")
    boolean yes;

    @Override
    public Integer call() throws Exception {
        return LocalCommands.refusable(() -> {
            reset(LocalCommands.config().run(), System.getenv());
            return 0;
        });
    }

    private void reset(RunFolder run, Map<String, String> env) throws Exception {
        String running = run.names().stream()
                .flatMap(name -> run.pid(name).map(pid -> name + " (pid " + pid + ")").stream())
                .collect(Collectors.joining(", "));
        if (!running.isEmpty()) {
            throw new IllegalStateException(
                    "reset: refused, still running: " + running + "; stop them with 'bin/flashsale down' first");
        }
        if (!env.getOrDefault("REDIS_CLUSTER_NODES", "").isBlank()) {
            throw new IllegalStateException(
                    "reset: works on the single Redis of REDIS_URL, not on REDIS_CLUSTER_NODES");
        }
        PrivateStores stores = PrivateStores.configured(env);
        String schema = stores.schema();
        String prefix = stores.redisPrefix();
        if (!schema.matches("[A-Za-z0-9_]+")) {
            throw new IllegalStateException(
                    "reset: MYSQL_URL names no plain database (jdbc:mysql://HOST[:PORT]/DATABASE): '" + schema + "'");
        }
        if (!prefix.matches("[A-Za-z0-9_:.-]{1,40}")) {
            throw new IllegalStateException("reset: FLASHSALE_REDIS_PREFIX '" + prefix + "' is not a key prefix");
        }
        RedisURI uri = RedisURI.create(stores.redisUrl());
        String redis = "redis://" + uri.getHost() + ":" + uri.getPort() + "/" + uri.getDatabase();
        boolean schemaThere = reachable(stores::schemaExists, "MySQL at " + stores.server() + " as " + stores.user());
        long keys = reachable(stores::keys, "Redis at " + redis);
        Path db = run.path().resolve("temporal.db");
        List<Path> files = Stream.of("", "-wal", "-shm")
                .map(suffix -> Path.of(db + suffix))
                .filter(Files::exists)
                .toList();
        if (!schemaThere && keys == 0 && files.isEmpty()) {
            System.out.println("nothing to reset: no schema " + schema + " on " + stores.server() + ", no keys "
                    + prefix + ":* on " + redis + ", no " + run.shown(db));
            return;
        }
        System.out.println("bin/flashsale reset deletes the dev data:");
        System.out.println(
                "  MySQL     schema " + schema + " on " + stores.server() + (schemaThere ? "" : " (not there)"));
        System.out.println("  Redis     " + keys + " keys " + prefix + ":* on " + redis);
        System.out.println("  Temporal  " + run.shown(db) + " (with -wal, -shm): the dev server's workflows"
                + (files.isEmpty() ? " (not there)" : ""));
        if (!yes && !confirmed()) {
            throw new IllegalStateException("reset: not confirmed; nothing was deleted");
        }
        if (schemaThere) {
            stores.dropSchema();
            System.out.println("dropped MySQL schema " + schema);
        }
        System.out.println("deleted " + stores.unlinkKeys() + " Redis keys " + prefix + ":*");
        for (Path file : files) {
            Files.delete(file);
        }
        System.out.println((files.isEmpty() ? "" : "deleted " + run.shown(db) + "\n")
                + "the next 'bin/flashsale up' starts on an empty schema, Redis and Temporal");
    }

    /** What {@code read} finds, refused naming {@code what} when it cannot be reached. */
    private static <T> T reachable(Callable<T> read, String what) {
        try {
            return read.call();
        } catch (Exception e) {
            throw new IllegalStateException("reset: cannot reach " + what + ": " + e.getMessage());
        }
    }

    private static boolean confirmed() throws Exception {
        System.out.print("Type yes to delete them: ");
        System.out.flush();
        String answer = new BufferedReader(new InputStreamReader(System.in)).readLine();
        System.out.println();
        return "yes".equals(answer);
    }
}
