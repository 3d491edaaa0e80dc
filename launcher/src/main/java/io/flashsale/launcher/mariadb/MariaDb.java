package io.flashsale.launcher.mariadb;

import io.flashsale.launcher.Folders;
import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.GoTool;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A MariaDB server of a run's own (the chaos run's), which can be SIGKILLed without touching the
 * machine's: a data directory made by {@code mariadb-install-db}, {@code mariadbd} on a free
 * loopback port with InnoDB's defaults for durability (every commit flushed), the project's MySQL
 * user created once. A restart reuses the port and the data directory, where InnoDB recovers.
 */
public record MariaDb(Processes processes, Path dir, int port) {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    /** A new server in {@code dir} (emptied first) with {@code user}/{@code password} allowed everything. */
    public static MariaDb start(Processes processes, Path dir, String user, String password) throws Exception {
        MariaDb server = new MariaDb(processes, dir.toAbsolutePath(), FreePorts.next());
        server.install();
        server.restart();
        server.run("CREATE USER '%s'@'%%' IDENTIFIED BY '%s'; GRANT ALL ON *.* TO '%s'@'%%';"
                .formatted(user, password, user));
        return server;
    }

    /** {@code jdbc:mysql://127.0.0.1:port}, as {@code MYSQL_URL} takes it without a database. */
    public String url() {
        return "jdbc:mysql://127.0.0.1:" + port;
    }

    public long pid() {
        Process process = processes.get("mariadb");
        return process.isAlive() ? process.pid() : -1;
    }

    /** SIGKILL, no shutdown ({@link Processes#kill(ProcessHandle)}). */
    public void kill() {
        Processes.kill(processes.get("mariadb").toHandle());
    }

    private void install() throws Exception {
        Folders.delete(dir);
        Files.createDirectories(dir);
        exec(List.of(
                "mariadb-install-db",
                "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--auth-root-authentication-method=normal",
                "--user=" + System.getProperty("user.name"),
                "--skip-test-db",
                "--innodb-log-file-size=16M"));
    }

    /** Starts the server (again) on its port and data; returns once InnoDB has recovered and it listens. */
    public void restart() throws Exception {
        processes.start(
                "mariadb",
                List.of(
                        GoTool.onPath("mariadbd", "/usr/sbin")
                                .map(Path::toString)
                                .orElse("mariadbd"),
                        "--no-defaults",
                        "--datadir=" + dir.resolve("data"),
                        "--bind-address=127.0.0.1",
                        "--port=" + port,
                        "--socket=" + socket(),
                        "--pid-file=" + dir.resolve("mariadbd.pid"),
                        "--user=" + System.getProperty("user.name"),
                        "--innodb-buffer-pool-size=64M",
                        "--innodb-log-file-size=16M",
                        "--max-connections=300"),
                Map.of());
        processes.awaitLog("mariadb", "ready for connections", READY_TIMEOUT);
    }

    /** Runs {@code sql} as root through the socket. */
    private void run(String sql) throws Exception {
        exec(List.of("mariadb", "--no-defaults", "--socket=" + socket(), "--user=root", "--execute=" + sql));
    }

    /** In the temporary folder: a socket path has a length limit (108 bytes), the data directory may be deep. */
    private Path socket() {
        return Path.of(System.getProperty("java.io.tmpdir"), "flashsale-chaos-mariadb-" + port + ".sock");
    }

    private void exec(List<String> command) throws Exception {
        Path log = dir.resolve("commands.log");
        if (Processes.exec(command, Map.of(), log, READY_TIMEOUT) != 0) {
            throw new IOException(command.get(0) + " failed; see " + log);
        }
    }
}
