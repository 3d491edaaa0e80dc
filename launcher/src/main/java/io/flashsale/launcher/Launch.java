package io.flashsale.launcher;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Where a launcher's processes go, by name: this JVM's children ({@link Processes}) or {@code up}'s detached ones. */
public interface Launch {

    /** Starts {@code command} as {@code name}, {@code environment} on top of the launcher's. */
    Process start(String name, List<String> command, Map<String, String> environment) throws IOException;

    default void start(String name, List<String> command) throws IOException {
        start(name, command, Map.of());
    }

    /** Whether the process last started as {@code name} still runs. */
    boolean alive(String name);

    /** Waits until {@code ready} holds; fails naming {@code name} once it exits or after {@code timeout}. */
    void await(String name, Duration timeout, Await.Check ready) throws InterruptedException;

    /** The process last started as {@code name}, alive or not, where processes are this JVM's children. */
    default Process get(String name) {
        throw new UnsupportedOperationException(name + " is not a child of this JVM");
    }
}
