package io.flashsale.bench;

import io.flashsale.launcher.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * An HTTP/1.1 load generator on one selector thread, so its own CPU use stays small on a machine it
 * shares with the system under test: keep-alive connections, one request in flight on each, closed
 * loop ({@link #run}) or open loop ({@link #runOpen}); gives up after {@code silence} without an answer.
 */
public record HttpLoad(InetSocketAddress address, Duration silence) {

    /** One request, ready on the wire; {@code id} comes back in the answer. */
    public record Request(int id, byte[] bytes) {}

    /** Hands out requests (null: no more), on the selector thread. */
    public interface Source {
        Request next();

        /** The requests over and over, in order. */
        static Source cycle(List<byte[]> requests) {
            AtomicLong next = new AtomicLong();
            return () -> {
                long i = next.getAndIncrement();
                return new Request((int) (i % Integer.MAX_VALUE), requests.get((int) (i % requests.size())));
            };
        }

        /** Each request once, in order, its id its position. */
        private static Source once(List<byte[]> requests) {
            AtomicInteger next = new AtomicInteger();
            return () -> {
                int i = next.getAndIncrement();
                return i < requests.size() ? new Request(i, requests.get(i)) : null;
            };
        }
    }

    /** Receives every answer (status -1: the connection failed), on the selector thread. */
    public interface Sink {
        void answered(int id, int status, String body, long nanos);
    }

    static final Duration SILENCE = Duration.ofSeconds(60);

    /** Open loop: at most this many connections unless told (one per request in flight). */
    static final int MAX_OPEN_CONNECTIONS = 4000;

    /** Open loop: a send this much after its intended time counts as late. */
    static final Duration LATE = Duration.ofMillis(10);

    /** How an open-loop run kept its schedule: send delays (µs), connections opened, seconds to the last answer. */
    public record Schedule(Histogram sendDelays, int connections, double seconds) {

        long late() {
            return sendDelays.getTotalCount() - sendDelays.getCountBetweenValues(0, LATE.toNanos() / 1000);
        }

        double delayMillis(double percentile) {
            return sendDelays.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    public HttpLoad(InetSocketAddress address) {
        this(address, SILENCE);
    }

    /** Closed loop: {@code connections} connections, each sending once answered, until the source or the deadline ends. */
    public void run(int connections, Source source, Sink sink, long deadlineNanos) throws IOException {
        new Loop(source, deadlineNanos, 0, connections).run(0, sink);
    }

    /** Closed loop: each of {@code requests} once, in order (ids are positions); returns {@code sink}. */
    public <S extends Sink> S each(int connections, List<byte[]> requests, S sink) throws IOException {
        run(connections, Source.once(requests), sink, Long.MAX_VALUE);
        return sink;
    }

    /**
     * Open loop: sends request {@code i} (its id {@code i}) {@code i / perSecond} seconds after the
     * start, whatever earlier answers did, on an idle connection or a new one that sends once connected
     * ({@code warm} open before the start; beyond {@code maxConnections} a send waits for an answer).
     * Latency counts from the intended time, so a send the generator made late shows instead of hiding
     * (no coordinated omission). Runs until every request has its answer.
     */
    public Schedule runOpen(List<byte[]> requests, double perSecond, int warm, int maxConnections, Sink sink)
            throws IOException {
        return new Loop(Source.once(requests), Long.MAX_VALUE, 1e9 / perSecond, maxConnections)
                .run(Math.min(warm, requests.size()), sink);
    }

    /** One run on a selector of its own: request {@code i} is due {@code i * interval} ns after the start. */
    private final class Loop {
        private final Source source;
        private final long deadline;
        private final double interval;
        private final int maxConnections;
        private final List<Connection> open = new ArrayList<>();
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        private final Histogram delays = new Histogram(3_600_000_000L, 3);
        private Selector selector;
        private Request pending;
        private boolean exhausted;
        private long start;
        private long last;
        private int sent;
        private int answered;

        Loop(Source source, long deadline, double interval, int maxConnections) {
            this.source = source;
            this.deadline = deadline;
            this.interval = interval;
            this.maxConnections = maxConnections;
        }

        Schedule run(int warm, Sink sink) throws IOException {
            try (Selector opened = Selector.open()) {
                selector = opened;
                try {
                    for (int i = 0; i < warm; i++) {
                        open.add(new Connection(selector, true));
                        idle.add(open.get(i));
                    }
                    start = System.nanoTime();
                    last = start;
                    long heard = start;
                    while (next() != null || sent > answered) {
                        sendDue();
                        if (selector.select(millisToNext()) > 0) {
                            heard = System.nanoTime();
                        } else if (sent > answered && System.nanoTime() - heard > silence.toNanos()) {
                            throw Await.gaveUp(
                                    silence, "an answer from " + address, (sent - answered) + " requests unanswered");
                        }
                        collect(sink);
                    }
                    return new Schedule(delays, open.size(), (last - start) / 1e9);
                } finally {
                    for (Connection connection : open) {
                        connection.close();
                    }
                }
            }
        }

        /** The next request, taken from the source once; null when none is left or past the deadline. */
        private Request next() {
            if (pending == null && !exhausted && System.nanoTime() < deadline) {
                pending = source.next();
                exhausted = pending == null;
            }
            return pending;
        }

        private long due() {
            return start + (long) (sent * interval);
        }

        private void sendDue() throws IOException {
            boolean closedLoop = interval == 0;
            while (next() != null && due() <= System.nanoTime()) {
                Connection connection = idle.poll();
                if (connection == null && open.size() >= maxConnections) {
                    return;
                }
                if (connection == null) {
                    connection = new Connection(selector, closedLoop);
                    open.add(connection);
                }
                connection.send(pending, closedLoop ? System.nanoTime() : due());
                delays.recordValue(Math.max(0, System.nanoTime() - due()) / 1000);
                pending = null;
                sent++;
            }
        }

        /** Until the next send may leave: at least 1 ms (the selector's resolution), at most 100 ms. */
        private long millisToNext() {
            if (next() == null || (idle.isEmpty() && open.size() >= maxConnections)) {
                return 100;
            }
            return Math.max(1, Math.min(100, (due() - System.nanoTime()) / 1_000_000));
        }

        private void collect(Sink sink) throws IOException {
            for (SelectionKey key : selector.selectedKeys()) {
                Connection connection = (Connection) key.attachment();
                if (key.isConnectable()) {
                    connection.finishConnect();
                } else if (connection.readable(sink)) {
                    answered++;
                    last = System.nanoTime();
                    idle.add(connection);
                }
            }
            selector.selectedKeys().clear();
        }
    }

    private final class Connection {
        private final Selector selector;
        private final ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        private final Response response = new Response();
        private SocketChannel channel;
        private SelectionKey key;
        private boolean connected;
        private Request current;
        private long started;

        /** {@code wait}: connect before returning; else the connect completes on the selector thread. */
        Connection(Selector selector, boolean wait) throws IOException {
            this.selector = selector;
            connect(wait);
        }

        private void connect(boolean wait) throws IOException {
            channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(wait);
            connected = channel.connect(address);
            channel.configureBlocking(false);
            key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, this);
        }

        void finishConnect() throws IOException {
            connected = channel.finishConnect();
            if (connected) {
                key.interestOps(SelectionKey.OP_READ);
                if (current != null) {
                    write();
                }
            }
        }

        /** Sends {@code request} (once connected), its latency counting from {@code startedNanos}. */
        void send(Request request, long startedNanos) throws IOException {
            current = request;
            response.reset();
            started = startedNanos;
            if (connected) {
                write();
            }
        }

        private void write() throws IOException {
            ByteBuffer out = ByteBuffer.wrap(current.bytes());
            while (out.hasRemaining()) {
                if (channel.write(out) == 0) {
                    Thread.onSpinWait();
                }
            }
        }

        /**
         * True once the current request has its whole answer (or failed); false while it is incomplete
         * and for an idle connection (one the server closed is opened again).
         */
        boolean readable(Sink sink) throws IOException {
            in.clear();
            int read;
            try {
                read = channel.read(in);
            } catch (IOException e) {
                read = -1;
            }
            if (current == null) {
                if (read < 0) {
                    reconnect();
                }
                return false;
            }
            if (read < 0) {
                answered(sink, -1, "");
                reconnect();
                return true;
            }
            if (!response.append(in.array(), read)) {
                return false;
            }
            answered(sink, response.status, response.body);
            if (response.closes) {
                reconnect();
            }
            return true;
        }

        private void answered(Sink sink, int status, String body) {
            Request request = current;
            current = null;
            sink.answered(request.id(), status, body, System.nanoTime() - started);
        }

        private void reconnect() throws IOException {
            close();
            connect(true);
        }

        void close() throws IOException {
            key.cancel();
            channel.close();
        }
    }

    /** One HTTP/1.1 answer as its bytes arrive: Content-Length or chunked bodies, no trailers. */
    private static final class Response {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private int status;
        private String body;
        private boolean closes;

        void reset() {
            bytes.reset();
        }

        /** Takes what was read; true once the answer is whole (its status, body and closes set). */
        boolean append(byte[] data, int count) {
            bytes.write(data, 0, count);
            // one char a byte, so lengths in bytes are lengths in chars
            String text = bytes.toString(StandardCharsets.ISO_8859_1);
            int headEnd = text.indexOf("\r\n\r\n");
            if (headEnd < 0) {
                return false;
            }
            String head = text.substring(0, headEnd + 2).toLowerCase(Locale.ROOT);
            String rest = text.substring(headEnd + 4);
            int lengthAt = head.indexOf("\r\ncontent-length:");
            String content = "";
            if (lengthAt >= 0) {
                int length = Integer.parseInt(head.substring(lengthAt + 17, head.indexOf("\r\n", lengthAt + 2))
                        .trim());
                content = rest.length() < length ? null : rest.substring(0, length);
            } else if (head.contains("\r\ntransfer-encoding: chunked")) {
                content = chunks(rest);
            }
            if (content == null) {
                return false;
            }
            status = Integer.parseInt(text.substring(9, 12));
            body = new String(content.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
            closes = head.contains("\r\nconnection: close");
            return true;
        }

        /** A chunked body's content, or null while its last chunk has not arrived. */
        private static String chunks(String rest) {
            StringBuilder content = new StringBuilder();
            for (int at = 0; ; ) {
                int lineEnd = rest.indexOf("\r\n", at);
                if (lineEnd < 0) {
                    return null;
                }
                int size = Integer.parseInt(
                        rest.substring(at, lineEnd).split(";")[0].trim(), 16);
                int next = lineEnd + 2 + size + 2;
                if (rest.length() < next) {
                    return null;
                }
                if (size == 0) {
                    return content.toString();
                }
                content.append(rest, lineEnd + 2, lineEnd + 2 + size);
                at = next;
            }
        }
    }
}
