package io.flashsale.launcher;

import java.io.IOException;
import java.util.List;

/**
 * Where a launcher's processes go, by name: the child processes of one run ({@link Processes}) or
 * the detached ones of {@code bin/flashsale up}, each with its log and its pid.
 */
public interface Launch {

    void start(String name, List<String> command) throws IOException;

    /** Whether the process last started as {@code name} still runs. */
    boolean alive(String name);
}
