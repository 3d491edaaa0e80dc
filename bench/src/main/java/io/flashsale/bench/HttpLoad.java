package io.flashsale.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A closed-loop HTTP/1.1 load generator: {@code connections} keep-alive connections on one selector
 * thread, each sending its next request as soon as the previous answer is complete. One thread keeps
 * the generator's own CPU use small on a machine it shares with the system under test. A run that
 * hears nothing at all for {@code silence} (60 s unless told) gives up instead of waiting forever.
 */
final class HttpLoad {

    /** One request, ready on the wire; {@code id} comes back in the answer. */
    record Request(int id, byte[] bytes) {}

    /** Hands out requests; null when there are no more. Called on the selector thread only. */
    interface Source {
        Request next();
    }

    /** Receives every answer (status -1: the connection failed). Called on the selector thread only. */
    interface Sink {
        void answered(int id, int status, String body, long nanos);
    }

    static final Duration SILENCE = Duration.ofSeconds(60);

    private final InetSocketAddress address;
    private final Duration silence;

    HttpLoad(InetSocketAddress address) {
        this(address, SILENCE);
    }

    /** {@code silence}: how long a run waits without a single byte of an answer before it gives up. */
    HttpLoad(InetSocketAddress address, Duration silence) {
        this.address = address;
        this.silence = silence;
    }

    /**
     * Runs until the source is exhausted or {@code deadlineNanos} (System.nanoTime) has passed.
     *
     * @throws Await.TimedOut when no connection heard anything for the silence timeout
     */
    void run(int connections, Source source, Sink sink, long deadlineNanos) throws IOException {
        List<Connection> open = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connections; i++) {
                Request first = source.next();
                if (first == null) {
                    break;
                }
                Connection connection = new Connection(selector);
                open.add(connection);
                connection.send(first);
            }
            int active = open.size();
            long heard = System.nanoTime();
            while (active > 0) {
                if (selector.select(100) > 0) {
                    heard = System.nanoTime();
                } else if (System.nanoTime() - heard > silence.toNanos()) {
                    throw Await.gaveUp(silence, "an answer from " + address, active + " requests unanswered");
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    Connection connection = (Connection) key.attachment();
                    if (!connection.readable(sink)) {
                        continue;
                    }
                    Request next = System.nanoTime() < deadlineNanos ? source.next() : null;
                    if (next == null) {
                        connection.close();
                        active--;
                    } else {
                        connection.send(next);
                    }
                }
                selector.selectedKeys().clear();
            }
        } finally {
            for (Connection connection : open) {
                connection.close();
            }
        }
    }

    private final class Connection {
        private final Selector selector;
        private final ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        private final Response response = new Response();
        private SocketChannel channel;
        private SelectionKey key;
        private Request current;
        private long started;

        Connection(Selector selector) throws IOException {
            this.selector = selector;
            connect();
        }

        private void connect() throws IOException {
            channel = SocketChannel.open(address);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            key = channel.register(selector, SelectionKey.OP_READ, this);
        }

        void send(Request request) throws IOException {
            current = request;
            response.reset();
            started = System.nanoTime();
            ByteBuffer out = ByteBuffer.wrap(request.bytes());
            while (out.hasRemaining()) {
                if (channel.write(out) == 0) {
                    Thread.onSpinWait();
                }
            }
        }

        /** @return true when the current request got its whole answer (or failed) */
        boolean readable(Sink sink) throws IOException {
            in.clear();
            int read;
            try {
                read = channel.read(in);
            } catch (IOException e) {
                read = -1;
            }
            if (read < 0) {
                sink.answered(current.id(), -1, "", System.nanoTime() - started);
                reconnect();
                return true;
            }
            response.append(in.array(), read);
            if (!response.complete()) {
                return false;
            }
            sink.answered(current.id(), response.status(), response.body(), System.nanoTime() - started);
            if (response.closes()) {
                reconnect();
            }
            return true;
        }

        private void reconnect() throws IOException {
            close();
            connect();
        }

        void close() throws IOException {
            key.cancel();
            channel.close();
        }
    }

    /** The bytes of one HTTP/1.1 answer so far: Content-Length or chunked bodies, no trailers. */
    static final class Response {
        private byte[] bytes = new byte[4096];
        private int length;
        private int headerEnd;
        private int status;
        private String body;
        private boolean closes;

        void reset() {
            length = 0;
            headerEnd = -1;
            body = null;
            closes = false;
        }

        void append(byte[] data, int count) {
            if (length + count > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + count));
            }
            System.arraycopy(data, 0, bytes, length, count);
            length += count;
        }

        boolean complete() {
            if (headerEnd < 0 && !parseHead()) {
                return false;
            }
            return body != null || parseBody();
        }

        private boolean parseHead() {
            int end = indexOf("\r\n\r\n", 0);
            if (end < 0) {
                return false;
            }
            headerEnd = end + 4;
            status = Integer.parseInt(new String(bytes, 9, 3, StandardCharsets.US_ASCII));
            return true;
        }

        private boolean parseBody() {
            String head = new String(bytes, 0, headerEnd, StandardCharsets.ISO_8859_1).toLowerCase();
            closes = head.contains("\r\nconnection: close");
            int lengthAt = head.indexOf("\r\ncontent-length:");
            if (lengthAt >= 0) {
                int lineEnd = head.indexOf("\r\n", lengthAt + 2);
                int contentLength =
                        Integer.parseInt(head.substring(lengthAt + 17, lineEnd).trim());
                if (length < headerEnd + contentLength) {
                    return false;
                }
                body = new String(bytes, headerEnd, contentLength, StandardCharsets.UTF_8);
                return true;
            }
            if (head.contains("\r\ntransfer-encoding: chunked")) {
                return parseChunks();
            }
            body = "";
            return true;
        }

        private boolean parseChunks() {
            StringBuilder text = new StringBuilder();
            int at = headerEnd;
            while (true) {
                int lineEnd = indexOf("\r\n", at);
                if (lineEnd < 0) {
                    return false;
                }
                String sizeText = new String(bytes, at, lineEnd - at, StandardCharsets.US_ASCII);
                int semicolon = sizeText.indexOf(';');
                int size = Integer.parseInt(semicolon < 0 ? sizeText.trim() : sizeText.substring(0, semicolon), 16);
                int next = lineEnd + 2 + size + 2;
                if (length < next) {
                    return false;
                }
                if (size == 0) {
                    body = text.toString();
                    return true;
                }
                text.append(new String(bytes, lineEnd + 2, size, StandardCharsets.UTF_8));
                at = next;
            }
        }

        private int indexOf(String marker, int from) {
            outer:
            for (int i = from; i <= length - marker.length(); i++) {
                for (int j = 0; j < marker.length(); j++) {
                    if (bytes[i + j] != marker.charAt(j)) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        int status() {
            return status;
        }

        String body() {
            return body;
        }

        boolean closes() {
            return closes;
        }
    }
}
