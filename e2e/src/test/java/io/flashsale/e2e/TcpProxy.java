package io.flashsale.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy the test controls, between the system's processes and one server (MySQL): {@link
 * #cut} closes every connection and refuses new ones until {@link #restore}, so only the processes
 * of one test see the outage.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String host;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    private TcpProxy(String host, int port) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.host = host;
        this.port = port;
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    static TcpProxy to(String host, int port) throws IOException {
        return new TcpProxy(host, port);
    }

    int port() {
        return server.getLocalPort();
    }

    /** The server is unreachable from now on: open connections drop, new ones are closed at once. */
    void cut() {
        cut = true;
        sockets.forEach(TcpProxy::closeQuietly);
        sockets.clear();
    }

    void restore() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    closeQuietly(client);
                } else {
                    connect(client);
                }
            } catch (IOException e) {
                // closed, or one connection failed: keep serving the others
            }
        }
    }

    private void connect(Socket client) throws IOException {
        Socket upstream;
        try {
            upstream = new Socket(host, port);
        } catch (IOException e) {
            closeQuietly(client);
            throw e;
        }
        sockets.add(client);
        sockets.add(upstream);
        pump(client, upstream);
        pump(upstream, client);
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int n; (n = in.read(buffer)) >= 0; ) {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException dropped) {
                        // cut, or one side closed
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                        sockets.remove(from);
                        sockets.remove(to);
                    }
                },
                "tcp-proxy-pump");
        pump.setDaemon(true);
        pump.start();
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
