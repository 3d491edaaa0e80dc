package io.flashsale.stores.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs calls at the same moment, one thread per call, and returns each call's result or exception:
 * every thread is started and waiting at the start line before any call runs.
 */
public final class Race {

    private Race() {}

    /** One outcome per call, in call order: the value, or the exception the call threw. */
    public record Outcome<T>(T value, Exception failure) {}

    public static <T> List<Outcome<T>> run(List<Callable<T>> calls) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, calls.size()));
        try {
            CountDownLatch ready = new CountDownLatch(calls.size());
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Outcome<T>>> futures = new ArrayList<>();
            for (Callable<T> call : calls) {
                futures.add(pool.submit(() -> attempt(ready, start, call)));
            }
            ready.await();
            start.countDown();
            List<Outcome<T>> outcomes = new ArrayList<>();
            for (Future<Outcome<T>> future : futures) {
                outcomes.add(join(future));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> Outcome<T> attempt(CountDownLatch ready, CountDownLatch start, Callable<T> call)
            throws InterruptedException {
        ready.countDown();
        start.await();
        try {
            return new Outcome<>(call.call(), null);
        } catch (Exception e) {
            return new Outcome<>(null, e);
        }
    }

    private static <T> Outcome<T> join(Future<Outcome<T>> future) throws InterruptedException {
        try {
            return future.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
