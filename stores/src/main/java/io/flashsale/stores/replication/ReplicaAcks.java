package io.flashsale.stores.replication;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * Makes a write's answer wait until replicas have the write. Redis replicates one ordered stream, so
 * a write made after the caller's write and acknowledged by WAIT covers the caller's too: one
 * waiter thread, on a connection of its own (a WAIT blocks its connection, and the admissions'
 * shared connection must never stall), takes every caller waiting, makes one small write
 * ({@code INCR} of {@code key}) and one {@code WAIT replicas timeout}, and answers them all. A burst
 * of winners costs one WAIT per batch, not one per winner; sold-out answers never come here.
 *
 * <p>When the replicas do not answer within the timeout (a replica dead, replication behind), the
 * batch is answered {@link Ack#MASTER_ONLY}, and so is every caller for the next {@code timeout}
 * without asking: a dead replica slows one batch a spell, never the sale. The callers count these
 * answers (metric and alert) and answer as usual: the write is on the master.
 */
public final class ReplicaAcks implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReplicaAcks.class);

    /** How a write was acknowledged before its answer. */
    public enum Ack {
        /** By the master and the replicas asked for. */
        REPLICATED,
        /** By the master only: no replica answered in time, or the wait failed. */
        MASTER_ONLY,
        /** No replica is asked for ({@code replicas: 0}). */
        NOT_ASKED
    }

    private final int replicas;
    private final Duration timeout;
    private final byte[] key;
    private final Supplier<RedisConnection> connections;
    private final Runnable release;
    private final BlockingQueue<CompletableFuture<Ack>> waiting = new LinkedBlockingQueue<>();
    private final Thread waiter;
    private volatile boolean running = true;
    private volatile long degradedUntilNanos = System.nanoTime();
    /** Used by the waiter's thread only. */
    private RedisConnection connection;

    /** Answers {@link Ack#NOT_ASKED} at once, with no thread and no connection. */
    public static ReplicaAcks none() {
        return new ReplicaAcks(0, Duration.ZERO, "", () -> null, () -> {});
    }

    /**
     * @param key a key the waiter increments before each WAIT (on the master, so on a single master's
     *     topology only)
     * @param connections a dedicated connection to the master, opened on the waiter's thread
     * @param release frees what {@code connections} holds, once closed
     */
    public ReplicaAcks(
            int replicas, Duration timeout, String key, Supplier<RedisConnection> connections, Runnable release) {
        this.replicas = replicas;
        this.timeout = timeout;
        this.key = key.getBytes(StandardCharsets.UTF_8);
        this.connections = connections;
        this.release = release;
        this.waiter = new Thread(this::serve, "replica-acks");
        waiter.setDaemon(true);
        if (replicas > 0) {
            waiter.start();
        }
    }

    /**
     * Waits until the caller's writes so far are on the replicas asked for, at most about the timeout.
     * Call it after the write's reply came back.
     */
    public Ack await() {
        if (replicas == 0) {
            return Ack.NOT_ASKED;
        }
        if (degraded()) {
            return Ack.MASTER_ONLY;
        }
        CompletableFuture<Ack> ack = new CompletableFuture<>();
        waiting.add(ack);
        try {
            // a batch ahead of this one may take its timeout too
            return ack.get(timeout.multipliedBy(2).plusSeconds(1).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Ack.MASTER_ONLY;
        } catch (ExecutionException | TimeoutException e) {
            return Ack.MASTER_ONLY;
        }
    }

    private void serve() {
        while (running) {
            List<CompletableFuture<Ack>> batch = new ArrayList<>();
            try {
                CompletableFuture<Ack> first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                waiting.drainTo(batch);
                // callers queued before a spell began are answered without a WAIT of their own
                Ack ack = degraded() ? Ack.MASTER_ONLY : waitForReplicas();
                if (ack == Ack.MASTER_ONLY) {
                    degradedUntilNanos = System.nanoTime() + timeout.toNanos();
                    waiting.drainTo(batch);
                }
                batch.forEach(caller -> caller.complete(ack));
            } catch (InterruptedException e) {
                batch.forEach(caller -> caller.complete(Ack.MASTER_ONLY));
                break;
            } catch (Throwable unexpected) {
                // never leave a caller waiting, never let the waiter die
                log.error("replica acknowledgements failed", unexpected);
                batch.forEach(caller -> caller.complete(Ack.MASTER_ONLY));
            }
        }
        closeConnection();
    }

    private boolean degraded() {
        return System.nanoTime() - degradedUntilNanos < 0;
    }

    private Ack waitForReplicas() {
        try {
            if (connection == null || connection.isClosed()) {
                connection = connections.get();
            }
            @SuppressWarnings("unchecked")
            var commands = (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
            long answerWithin = timeout.toMillis() + 1_000;
            commands.incr(key).get(answerWithin, TimeUnit.MILLISECONDS);
            long count = commands.waitForReplication(replicas, Math.max(1, timeout.toMillis()))
                    .get(answerWithin, TimeUnit.MILLISECONDS);
            if (count >= replicas) {
                return Ack.REPLICATED;
            }
            log.warn(
                    "{} of {} Redis replicas acknowledged within {}: answering on the master's word",
                    count,
                    replicas,
                    timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            log.warn("waiting for Redis replicas failed: {}", e.toString());
            closeConnection();
        }
        return Ack.MASTER_ONLY;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException ignored) {
                // already broken
            }
            connection = null;
        }
    }

    /** Stops the waiter (it closes its connection on its way out), then frees the connections. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        if (replicas > 0) {
            waiter.interrupt();
            waiter.join(timeout.multipliedBy(2).plusSeconds(2).toMillis());
        }
        waiting.forEach(caller -> caller.complete(Ack.MASTER_ONLY));
        release.run();
    }
}
