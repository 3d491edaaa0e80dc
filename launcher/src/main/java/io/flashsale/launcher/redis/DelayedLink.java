package io.flashsale.launcher.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A loopback TCP link to one server that delivers every byte {@code latency} late, in order, the way
 * a slow network between two machines does: what is on its way lives in this process, so {@link
 * #cut} loses it, as a machine's death loses what its network had not delivered yet.
 */
final class DelayedLink implements AutoCloseable {

    private record Chunk(long dueNanos, byte[] bytes) {}

    private final ServerSocket server;
    private final int targetPort;
    private final Duration latency;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    DelayedLink(int targetPort, Duration latency) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.latency = latency;
        daemon("delayed-link-" + targetPort, this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Every connection drops with what it had on its way; new ones are refused. */
    void cut() {
        cut = true;
        sockets.forEach(DelayedLink::closeQuietly);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket upstream;
                try {
                    upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                } catch (IOException refused) {
                    closeQuietly(client);
                    continue;
                }
                sockets.add(client);
                sockets.add(upstream);
                relay(client, upstream);
                relay(upstream, client);
            } catch (IOException e) {
                // closed, or the target refused: the other side sees the connection fail
            }
        }
    }

    /** One direction: a reader queues what arrives, a writer delivers each chunk once it is due. */
    private void relay(Socket from, Socket to) {
        BlockingQueue<Chunk> onItsWay = new LinkedBlockingQueue<>();
        daemon("delayed-link-read", () -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    onItsWay.add(new Chunk(System.nanoTime() + latency.toNanos(), Arrays.copyOf(buffer, n)));
                }
            } catch (IOException closed) {
                // cut, or the sender closed
            }
            onItsWay.add(new Chunk(0, null));
        });
        daemon("delayed-link-write", () -> {
            try (OutputStream out = to.getOutputStream()) {
                for (Chunk chunk = onItsWay.take(); chunk.bytes() != null && !cut; chunk = onItsWay.take()) {
                    long wait = chunk.dueNanos() - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    if (!cut) {
                        out.write(chunk.bytes());
                        out.flush();
                    }
                }
            } catch (IOException | InterruptedException closed) {
                // cut, or the receiver closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        cut();
    }
}
