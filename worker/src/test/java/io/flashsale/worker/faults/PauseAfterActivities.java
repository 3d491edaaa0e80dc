package io.flashsale.worker.faults;

import io.flashsale.worker.temporal.ActivityInboundWithInfo;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import io.temporal.common.metadata.POJOActivityInterfaceMetadata;
import io.temporal.common.metadata.POJOActivityMethodMetadata;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection for crash tests: an activity of one of the named types does its work (the Lua
 * script ran, the transaction committed) and then does not report back to Temporal; its thread waits
 * until the process is killed. A test can so SIGKILL a worker at an exact step of the saga, e.g.
 * inside {@code CreateOrder} after the commit, and check that another worker repeats the step
 * without doing its work twice. Armed only by {@code FLASHSALE_PAUSE_AFTER}; off by default.
 */
public class PauseAfterActivities extends WorkerInterceptorBase {

    private static final Logger log = LoggerFactory.getLogger(PauseAfterActivities.class);

    private final Set<String> activityTypes;

    /**
     * @param activityTypes names as configured (blank entries, e.g. from a trailing comma, are ignored)
     * @throws IllegalArgumentException for a name that is not an activity type of {@code interfaces}
     */
    public PauseAfterActivities(Collection<String> activityTypes, List<Class<?>> interfaces) {
        Set<String> known = new TreeSet<>();
        interfaces.forEach(type -> POJOActivityInterfaceMetadata.newInstance(type).getMethodsMetadata().stream()
                .map(POJOActivityMethodMetadata::getActivityTypeName)
                .forEach(known::add));
        Set<String> named = activityTypes.stream()
                .map(String::trim)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> unknown = new TreeSet<>(named);
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "flashsale.worker.pause-after names no activity type: " + unknown + "; known: " + known);
        }
        this.activityTypes = Set.copyOf(named);
    }

    Set<String> activityTypes() {
        return activityTypes;
    }

    @Override
    public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
        return new Pausing(next);
    }

    private final class Pausing extends ActivityInboundWithInfo {

        Pausing(ActivityInboundCallsInterceptor next) {
            super(next);
        }

        @Override
        public ActivityOutput execute(ActivityInput input) {
            ActivityOutput output = super.execute(input);
            ActivityInfo info = info();
            if (activityTypes.contains(info.getActivityType())) {
                log.warn(
                        "paused after {} of {} (attempt {}): its work is done, Temporal is not told",
                        info.getActivityType(),
                        info.getWorkflowId(),
                        info.getAttempt());
                awaitKill();
            }
            return output;
        }

        private void awaitKill() {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException shuttingDown) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("worker stopped while paused after " + info().getActivityType());
            }
        }
    }
}
