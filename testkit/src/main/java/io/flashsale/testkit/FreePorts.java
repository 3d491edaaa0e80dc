package io.flashsale.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/** The one way tests and tools pick a port for a server they start. */
public final class FreePorts {

    /** Every port handed out in this JVM: none is handed out twice, though none is held. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    /** {@code count} ports, each free now ({@link #next}). */
    public static List<Integer> take(int count) {
        return IntStream.range(0, count).mapToObj(i -> next()).toList();
    }

    /**
     * A port free now, below Linux's ephemeral range (32768-60999): a port the kernel hands out with
     * {@code new ServerSocket(0)} may be taken again, as the local end of some outgoing connection,
     * before the child that is given it listens (seen: an api that could not bind its port). Random
     * among 15000-32767, so two processes rarely pick the same one, and never one this JVM handed out
     * before. Below 32768 also suits the Temporal server, whose PostgreSQL schema keeps a node's
     * membership port in a {@code SMALLINT}. The kernel's choice if none binds.
     */
    public static int next() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = 15_000 + ThreadLocalRandom.current().nextInt(32_768 - 15_000);
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(port)) {
                socket.setReuseAddress(true);
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException taken) {
                // another one
            }
        }
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
