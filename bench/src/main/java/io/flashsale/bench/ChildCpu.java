package io.flashsale.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * CPU of this JVM's children that have ended, as the kernel accounts it: when a child is reaped
 * (Java's process reaper waits for each), its user and system time are added to the parent's
 * {@code cutime} and {@code cstime} ({@code /proc/self/stat}, fields 16 and 17, in clock ticks of
 * {@value #TICKS_PER_SECOND} a second, Linux's USER_HZ). Read before a child starts and after it
 * ended, the difference is that child's whole CPU, its last moments included, which sampling
 * {@code /proc/<pid>/stat} while it runs would miss; exact as long as no other child ends between
 * the two reads.
 */
final class ChildCpu {

    static final int TICKS_PER_SECOND = 100;

    private ChildCpu() {}

    /** The CPU of every child of this JVM reaped so far. */
    static Duration ended() {
        try {
            return ofStat(Files.readString(Path.of("/proc/self/stat")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /proc/self/stat", e);
        }
    }

    /**
     * cutime + cstime of one {@code /proc/PID/stat} line. The command name (field 2) may hold spaces
     * and parentheses, so the fields are counted from the last ')'.
     */
    static Duration ofStat(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is field 3 (state): cutime (16) and cstime (17) are fields[13] and fields[14]
        long ticks = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
    }
}
