package io.flashsale.devredis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Distinct loopback ports nobody listens on, as the kernel hands out ephemeral ones. */
final class FreePorts {

    private FreePorts() {}

    /** {@code count} ports, each held open until all are chosen so none comes twice. */
    static List<Integer> take(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
    }
}
