package io.flashsale.launcher.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Set;

/** Whether something listens on a port; a taken port refuses {@code up} before anything starts. */
final class Ports {

    private static final Set<String> LOCAL = Set.of("127.0.0.1", "localhost", "0.0.0.0", "[::1]", "::1");

    private Ports() {}

    static boolean listening(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host.replace("[", "").replace("]", ""), port), 2000);
            return true;
        } catch (IOException nothing) {
            return false;
        }
    }

    /** The first port from {@code port} up that nothing listens on. */
    static int freeFrom(int port) {
        int free = port;
        while (listening("127.0.0.1", free)) {
            free++;
        }
        return free;
    }

    static boolean isLocal(String host) {
        return LOCAL.contains(host);
    }

    /** Refuses when {@code port} is taken, naming what wanted it and the variable that moves it. */
    static void refuseTaken(int port, String what, String variable) {
        if (listening("127.0.0.1", port)) {
            throw new Refused("port " + port + " (" + what + ") is taken; stop what uses it or set " + variable);
        }
    }
}
