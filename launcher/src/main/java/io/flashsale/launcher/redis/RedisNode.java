package io.flashsale.launcher.redis;

import io.flashsale.launcher.Processes;
import java.io.IOException;

/** One redis-server process started here: its client port and its process. Every signal goes to this pid only. */
public record RedisNode(int port, Process process) {

    public long pid() {
        return process.pid();
    }

    /** {@code 127.0.0.1:port}, as {@code REDIS_CLUSTER_NODES} lists it. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends {@code signal} to this node's pid: STOP, or CONT for a node {@link RedisCluster#cutReplication} stopped. */
    public void signal(String signal) throws IOException, InterruptedException {
        Process kill =
                new ProcessBuilder("kill", "-" + signal, "" + pid()).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + pid() + " failed");
        }
    }

    /** SIGKILL of this very process (its handle never signals a reused pid): no shutdown, no last write. */
    public void kill() {
        Processes.kill(process.toHandle());
    }

    @Override
    public String toString() {
        return address() + " (pid " + pid() + ")";
    }
}
