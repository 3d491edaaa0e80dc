package io.flashsale.api.purchase;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Unwraps what a {@link java.util.concurrent.CompletableFuture} wrapped around a failure. */
final class Failures {

    private Failures() {}

    static Throwable root(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    static RuntimeException unchecked(Throwable failure) {
        return failure instanceof RuntimeException runtime ? runtime : new CompletionException(failure);
    }
}
