package io.flashsale.launcher;

import java.io.IOException;
import java.util.List;

/** Where a launcher's processes go, by name: a run's children ({@link Processes}) or {@code up}'s detached ones. */
public interface Launch {

    void start(String name, List<String> command) throws IOException;

    /** Whether the process last started as {@code name} still runs. */
    boolean alive(String name);

    /** The process last started as {@code name}, alive or not, where processes are this JVM's children. */
    default Process get(String name) {
        throw new UnsupportedOperationException(name + " is not a child of this JVM");
    }
}
