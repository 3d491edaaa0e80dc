package io.flashsale.testkit;

import java.io.IOException;
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

    private static final int LOWEST = 15_000;
    private static final int EPHEMERAL = 32_768;
    /** Forks of one test run that pick from slices of their own, so never the same port at once. */
    private static final int SLICES = 4;
    /**
     * All of 15000-32767, or in a test fork ({@code flashsale.fork}, e.g. failsafe's {@code
     * ${surefire.forkNumber}}) a quarter of it, so two forks never race for one port.
     */
    private static final int[] RANGE = range(System.getProperty("flashsale.fork", ""));

    private FreePorts() {}

    /** {@code count} ports, each free now ({@link #next}). */
    public static List<Integer> take(int count) {
        return IntStream.range(0, count).mapToObj(i -> next()).toList();
    }

    /**
     * A free port below Linux's ephemeral range (32768-60999), where an outgoing connection may take
     * a port {@code new ServerSocket(0)} handed out before the child binds it; below 32768 also suits
     * Temporal's PostgreSQL schema ({@code SMALLINT} membership port). Random within this fork's
     * {@link #RANGE}, never one this JVM handed out before.
     */
    public static int next() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(RANGE[0], RANGE[1]);
            try (ServerSocket socket = new ServerSocket(port)) {
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException taken) {
                // another one
            }
        }
        throw new IllegalStateException("no free port in " + RANGE[0] + "-" + (RANGE[1] - 1) + " after 100 tries");
    }

    /** {@code [from, to)} for fork {@code fork} (1, 2, ...; blank: not a fork). */
    static int[] range(String fork) {
        if (fork.isBlank()) {
            return new int[] {LOWEST, EPHEMERAL};
        }
        int size = (EPHEMERAL - LOWEST) / SLICES;
        int from = LOWEST + (Integer.parseInt(fork.trim()) - 1) % SLICES * size;
        return new int[] {from, from + size};
    }
}
