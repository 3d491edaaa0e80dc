package io.flashsale.launcher.mariadb;

import io.flashsale.launcher.Processes;
import io.flashsale.launcher.temporal.GoTool;
import io.flashsale.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The chaos run's own MariaDB, SIGKILLed without touching the machine's: {@code mariadbd} on a free
 * loopback port, every commit flushed; a restart reuses the port and data, where InnoDB recovers.
 */
public record MariaDb(Processes processes, Path dir, int port) {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String USER = "--user=" + System.getProperty("user.name");

    /** A new server in {@code dir} (emptied first) with {@code user}/{@code password} allowed everything. */
    public static MariaDb start(Processes processes, Path dir, String user, String password) throws Exception {
        MariaDb server = new MariaDb(processes, dir.toAbsolutePath(), FreePorts.next());
        Processes.deleteFolder(server.dir);
        String data = "--datadir=" + server.dir.resolve("data");
        String rootLogin = "--auth-root-authentication-method=normal";
        server.exec("mariadb-install-db", data, USER, "--skip-test-db", rootLogin, "--innodb-log-file-size=16M");
        server.restart();
        String grant = "CREATE USER '%1$s'@'%%' IDENTIFIED BY '%2$s'; GRANT ALL ON *.* TO '%1$s'@'%%';"
                .formatted(user, password);
        server.exec("mariadb", "--socket=" + server.socket(), "--user=root", "--execute=" + grant);
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

    /** SIGKILL, no shutdown. */
    public void kill() {
        Processes.kill(processes.get("mariadb").toHandle());
    }

    /** Starts the server (again) on its port and data; returns once InnoDB has recovered and it listens. */
    public void restart() throws Exception {
        String mariadbd =
                GoTool.onPath("mariadbd", "/usr/sbin").map(Path::toString).orElse("mariadbd");
        List<String> command = new ArrayList<>(List.of(mariadbd, "--no-defaults", "--datadir=" + dir.resolve("data")));
        command.addAll(List.of("--bind-address=127.0.0.1", "--port=" + port, "--socket=" + socket(), USER));
        command.addAll(List.of("--pid-file=" + dir.resolve("mariadbd.pid"), "--max-connections=300"));
        command.addAll(List.of("--innodb-buffer-pool-size=64M", "--innodb-log-file-size=16M"));
        processes.start("mariadb", command, Map.of());
        processes.awaitLog("mariadb", "ready for connections", READY_TIMEOUT);
    }

    /** In the temporary folder: a socket path has a length limit (108 bytes), the data directory may be deep. */
    private Path socket() {
        return Path.of(System.getProperty("java.io.tmpdir"), "flashsale-chaos-mariadb-" + port + ".sock");
    }

    /** Runs {@code program --no-defaults arguments} to its end, its output in {@code commands.log}. */
    private void exec(String program, String... arguments) throws Exception {
        Path log = dir.resolve("commands.log");
        List<String> command = new ArrayList<>(List.of(program, "--no-defaults"));
        command.addAll(List.of(arguments));
        if (Processes.exec(command, Map.of(), log, READY_TIMEOUT) != 0) {
            throw new IOException(program + " failed; see " + log);
        }
    }
}
