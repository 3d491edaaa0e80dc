package io.flashsale.e2e;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * When a test against a running system fails, writes the histories of the workflows still open to
 * the system's log folder (next to the api and worker logs) and says where.
 */
final class HistoriesOnFailure implements TestWatcher {

    private final Supplier<FlashSaleSystem> system;

    HistoriesOnFailure(Supplier<FlashSaleSystem> system) {
        this.system = system;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        FlashSaleSystem running = system.get();
        if (running == null) {
            return;
        }
        try {
            System.err.printf(
                    "%s failed: open workflows' histories in %s%n",
                    context.getDisplayName(), running.dumpOpenHistories().toAbsolutePath());
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
    }
}
