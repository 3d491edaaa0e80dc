package io.flashsale.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The data folders of the servers a run starts of its own: emptied before a start, deleted with a machine. */
public final class Folders {

    private Folders() {}

    /** Deletes {@code path} and everything under it; nothing when it is not there. */
    public static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
