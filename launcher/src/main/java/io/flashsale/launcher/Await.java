package io.flashsale.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/** The one wait of the tooling and its probes: polls until a condition holds; one that gives up says what it waited for. */
public final class Await {

    /** A wait that passed its deadline; the message is meant for the person running the command. */
    public static final class TimedOut extends IllegalStateException {
        TimedOut(String message) {
            super(message);
        }
    }

    /** A check that may fail while its subject starts: a failure counts as not yet. */
    public interface Check {
        boolean ok() throws Exception;
    }

    private Await() {}

    /** Reads every {@code every} until {@code done} holds and returns what it read; past {@code timeout}, {@link TimedOut}. */
    public static <T> T until(String what, Duration timeout, Duration every, Callable<T> read, Predicate<T> done)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T seen = read.call();
            if (done.test(seen)) {
                return seen;
            }
            if (System.nanoTime() > deadline) {
                throw gaveUp(timeout, what, seen);
            }
            Thread.sleep(every.toMillis());
        }
    }

    /**
     * Polls {@code ready} every 200 ms, its failures counting as not yet; fails naming {@code what}
     * once {@code alive} turns false or after {@code timeout}, with the check's last failure as cause.
     */
    public static void until(String what, Duration timeout, BooleanSupplier alive, Check ready)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (ready.ok()) {
                    return;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception notYet) {
                last = notYet;
            }
            if (!alive.getAsBoolean()) {
                throw new IllegalStateException("exited while starting: " + what, last);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not ready within " + timeout.toSeconds() + "s: " + what, last);
            }
            Thread.sleep(200);
        }
    }

    /** "gave up after 12 s waiting for {what}; last saw: {lastSeen}". */
    public static TimedOut gaveUp(Duration timeout, String what, Object lastSeen) {
        return new TimedOut("gave up after %s waiting for %s; last saw: %s".formatted(text(timeout), what, lastSeen));
    }

    /** "12 s" for whole seconds and from 10 s on (rounded), else "1500 ms". */
    public static String text(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 || millis >= 10_000 ? Math.round(millis / 1000.0) + " s" : millis + " ms";
    }

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    /** Whether something takes connections on {@code host:port} (within 2 s). */
    public static boolean listening(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host.replace("[", "").replace("]", ""), port), 2000);
            return true;
        } catch (IOException nothing) {
            return false;
        }
    }

    /** Whether the app on {@code port} answers UP on {@code /actuator/health}. */
    public static boolean healthy(int port) {
        return ok("http://127.0.0.1:" + port + "/actuator/health", "\"status\":\"UP\"");
    }

    /** Whether {@code url} answers 200 within 3 s, its body holding {@code bodyHolds} unless that is null. */
    public static boolean ok(String url, String bodyHolds) {
        try {
            HttpResponse<String> response = CLIENT.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200
                    && (bodyHolds == null || response.body().contains(bodyHolds));
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
