package io.flashsale.launcher.local;

import io.flashsale.launcher.Http;
import java.util.Set;

/** Whether something listens on a port; a taken port refuses {@code up} before anything starts. */
final class Ports {

    private static final Set<String> LOCAL = Set.of("127.0.0.1", "localhost", "0.0.0.0", "[::1]", "::1");

    private Ports() {}

    /** The first port from {@code port} up that nothing listens on. */
    static int freeFrom(int port) {
        int free = port;
        while (Http.listening("127.0.0.1", free)) {
            free++;
        }
        return free;
    }

    static boolean isLocal(String host) {
        return LOCAL.contains(host);
    }

    /** Refuses when {@code port} is taken, naming what wanted it and the variable that moves it. */
    static void refuseTaken(int port, String what, String variable) {
        if (Http.listening("127.0.0.1", port)) {
            throw new Refused("port " + port + " (" + what + ") is taken; stop what uses it or set " + variable);
        }
    }
}
