package io.flashsale.launcher;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/** The Temporal a private stack runs on: the dev server ({@link TemporalProcess}) or a cluster ({@link TemporalClusterProcesses}). */
public interface TemporalService {

    /** {@code host:port} of its frontend (gRPC), what clients connect to. */
    String address();

    /** Its Web UI, when it has one. */
    Optional<URI> webUi();

    /** Its live server processes by name, e.g. to read their CPU time. */
    Map<String, ProcessHandle> processes();
}
