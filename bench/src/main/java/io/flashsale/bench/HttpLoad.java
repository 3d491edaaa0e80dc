package io.flashsale.bench;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import io.flashsale.launcher.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/** HTTP/1.1 load on one selector thread (one core at most): keep-alive connections, closed or open loop. */
public record HttpLoad(InetSocketAddress address, Duration silence) {

    /** Open loop: at most this many connections unless told (one per request in flight). */
    static final int MAX_OPEN_CONNECTIONS = 4000;

    /** Open loop: a send this much after its intended time counts as late. */
    static final Duration LATE = Duration.ofMillis(10);

    /** One request, ready on the wire; {@code id} comes back with its answer. */
    public record Request(int id, byte[] bytes) {}

    /** Hands out requests (null: no more), on the selector thread. */
    public interface Source {
        Request next();

        /** The requests in order, once each or ({@code cycle}) over and over; the ids count up. */
        static Source of(List<byte[]> requests, boolean cycle) {
            AtomicInteger next = new AtomicInteger();
            return () -> {
                int i = next.getAndIncrement();
                return cycle || i < requests.size()
                        ? new Request(i, requests.get(Math.floorMod(i, requests.size())))
                        : null;
            };
        }
    }

    /** Receives every answer (status -1: the connection failed), on the selector thread. */
    public interface Sink {
        void answered(int id, int status, String body, long nanos);
    }

    /** How an open loop kept its schedule: send delays (µs), connections opened, seconds to the last answer. */
    public record Schedule(Histogram sendDelays, int connections, double seconds) {
        long late() {
            return sendDelays.getTotalCount() - sendDelays.getCountBetweenValues(0, LATE.toNanos() / 1000);
        }
    }

    public HttpLoad(InetSocketAddress address) {
        this(address, Duration.ofSeconds(60));
    }

    /** Closed loop: {@code connections} connections, each sending once answered, until the source or deadline ends. */
    public void run(int connections, Source source, Sink sink, long deadlineNanos) throws IOException {
        new Loop(() -> System.nanoTime() < deadlineNanos ? source.next() : null, sink, 0, connections).run(0);
    }

    /** Closed loop: each of {@code requests} once, in order (ids are positions); returns {@code sink}. */
    public <S extends Sink> S each(int connections, List<byte[]> requests, S sink) throws IOException {
        run(connections, Source.of(requests, false), sink, Long.MAX_VALUE);
        return sink;
    }

    /**
     * Open loop: request {@code i} leaves {@code i / perSecond} s after the start on an idle or new connection
     * ({@code warm} opened before); latency counts from the intended time (no coordinated omission).
     */
    public Schedule runOpen(List<byte[]> requests, double perSecond, int warm, int maxConnections, Sink sink)
            throws IOException {
        return new Loop(Source.of(requests, false), sink, 1e9 / perSecond, maxConnections)
                .run(Math.min(warm, requests.size()));
    }

    /** One run on a selector of its own: request {@code i} is due {@code i * interval} ns after the start. */
    private final class Loop {
        private final Selector selector = Selector.open();
        private final List<Connection> open = new ArrayList<>();
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        private final Histogram delays = new Histogram(3_600_000_000L, 3);
        private final Source source;
        private final Sink sink;
        private final double interval;
        private final int maxConnections;
        private Request pending;
        private long start, last;
        private int sent, answered;

        Loop(Source source, Sink sink, double interval, int maxConnections) throws IOException {
            this.source = source;
            this.sink = sink;
            this.interval = interval;
            this.maxConnections = maxConnections;
        }

        Schedule run(int warm) throws IOException {
            try (selector) {
                for (int i = 0; i < warm; i++) {
                    idle.add(new Connection(true));
                }
                long heard = start = last = System.nanoTime();
                while (next() != null || sent > answered) {
                    sendDue();
                    if (selector.select(millisToNext()) > 0) {
                        heard = System.nanoTime();
                    } else if (sent > answered && System.nanoTime() - heard > silence.toNanos()) {
                        throw Await.gaveUp(
                                silence, "an answer from " + address, (sent - answered) + " requests unanswered");
                    }
                    collect();
                }
                return new Schedule(delays, open.size(), (last - start) / 1e9);
            } finally {
                for (Connection connection : open) {
                    connection.channel.close();
                }
            }
        }

        private Request next() {
            if (pending == null) {
                pending = source.next();
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
                if (connection == null) {
                    if (open.size() >= maxConnections) {
                        return;
                    }
                    connection = new Connection(closedLoop);
                }
                connection.send(pending, closedLoop ? System.nanoTime() : due());
                delays.recordValue(Math.max(0, System.nanoTime() - due()) / 1000);
                pending = null;
                sent++;
            }
        }

        /** Until the next send may leave: at least 1 ms (the selector's resolution), at most 100 ms. */
        private long millisToNext() {
            boolean waiting = next() == null || idle.isEmpty() && open.size() >= maxConnections;
            return waiting ? 100 : Math.max(1, Math.min(100, (due() - System.nanoTime()) / 1_000_000));
        }

        private void collect() throws IOException {
            for (SelectionKey key : selector.selectedKeys()) {
                Connection connection = (Connection) key.attachment();
                if (connection.ready(key)) {
                    answered++;
                    last = System.nanoTime();
                    idle.add(connection);
                }
            }
            selector.selectedKeys().clear();
        }

        /** A keep-alive connection with at most one request in flight. */
        private final class Connection {
            private final ByteBuffer in = ByteBuffer.allocate(16 * 1024);
            private final ByteArrayOutputStream answer = new ByteArrayOutputStream();
            private SocketChannel channel;
            private SelectionKey key;
            private Request current;
            private long started;

            /** {@code wait}: connected on return; else the connect completes on the selector thread. */
            Connection(boolean wait) throws IOException {
                open(wait);
                open.add(this);
            }

            /** Opens the connection, or again once the server closed it (closing the one before). */
            private void open(boolean wait) throws IOException {
                if (key != null) {
                    key.cancel();
                    channel.close();
                }
                channel = SocketChannel.open();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(wait);
                channel.connect(address);
                channel.configureBlocking(false);
                key = channel.register(
                        selector, channel.isConnected() ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, this);
            }

            void send(Request request, long startedNanos) throws IOException {
                current = request;
                started = startedNanos;
                answer.reset();
                if (channel.isConnected()) {
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

            /** True once the request in flight has its whole answer or failed; one the server closed opens again. */
            boolean ready(SelectionKey ready) throws IOException {
                if (ready.isConnectable()) {
                    if (channel.finishConnect()) {
                        key.interestOps(SelectionKey.OP_READ);
                        if (current != null) { // a request waits for this connection
                            write();
                        }
                    }
                    return false;
                }
                in.clear();
                int read;
                try {
                    read = channel.read(in);
                } catch (IOException reset) {
                    read = -1;
                }
                Answer whole =
                        read < 0 ? Answer.FAILED : current == null ? null : Answer.parse(answer, in.array(), read);
                boolean done = current != null && whole != null;
                if (done) {
                    sink.answered(current.id(), whole.status(), whole.body(), System.nanoTime() - started);
                    current = null;
                }
                if (read < 0 || done && whole.closes()) {
                    open(true);
                }
                return done;
            }
        }
    }

    /** A whole HTTP/1.1 answer: a Content-Length or chunked body, no trailers. */
    private record Answer(int status, String body, boolean closes) {

        /** A connection that failed or was closed while a request was in flight. */
        static final Answer FAILED = new Answer(-1, "", true);

        /** Adds {@code count} bytes read to {@code bytes}; the answer once whole, else null. */
        static Answer parse(ByteArrayOutputStream bytes, byte[] read, int count) {
            bytes.write(read, 0, count);
            // one char a byte, so lengths in bytes are lengths in chars
            String text = bytes.toString(ISO_8859_1);
            int headEnd = text.indexOf("\r\n\r\n");
            if (headEnd < 0) {
                return null;
            }
            String head = text.substring(0, headEnd + 2).toLowerCase(Locale.ROOT);
            String rest = text.substring(headEnd + 4);
            int lengthAt = head.indexOf("\r\ncontent-length:");
            int length = lengthAt < 0
                    ? 0
                    : Integer.parseInt(head.substring(lengthAt + 17, head.indexOf("\r\n", lengthAt + 2))
                            .trim());
            String content = head.contains("\r\ntransfer-encoding: chunked")
                    ? chunks(rest)
                    : rest.length() < length ? null : rest.substring(0, length);
            return content == null
                    ? null
                    : new Answer(
                            Integer.parseInt(text.substring(9, 12)),
                            new String(content.getBytes(ISO_8859_1), UTF_8),
                            head.contains("\r\nconnection: close"));
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
