package io.flashsale.chaos;

import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toList;

import io.flashsale.launcher.proxy.Toxiproxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The faults of a chaos run, decided by its seed before it starts: every 10 to 40 s a SIGKILL of a
 * process ({@link ChaosStack#targets}) or a network fault on a link ({@link ChaosStack#links}),
 * healed 2 to 8 s later, now and then two at once.
 */
public final class Nemesis {

    /** At {@code at} after the start, {@code kill} or one of {@link Toxiproxy#FAULTS} on a target for {@code down}. */
    public record Fault(Duration at, String action, String target, Duration down) {
        public boolean kill() {
            return action.equals(KILL);
        }

        @Override
        public String toString() {
            return String.format(
                    "%6.1fs %-10s %-11s for %4.1fs", at.toMillis() / 1e3, action, target, down.toMillis() / 1e3);
        }
    }

    /** What shows a fault happened: the pid killed and its replacement, or what Toxiproxy reported of the link. */
    public record Done(Fault fault, long killedPid, long restartedPid, String broken, String healed, String failure) {

        @Override
        public String toString() {
            return fault + ": " + (fault.kill() ? "pid " + killedPid + " -> " + restartedPid : broken + " -> " + healed)
                    + (failure == null ? "" : " FAILED " + failure);
        }
    }

    static final String KILL = "kill";

    private static final Duration FIRST = Duration.ofSeconds(10);
    /** Nothing is killed this close to the end, so every restart is done before the load stops. */
    private static final Duration QUIET_END = Duration.ofSeconds(15);

    private Nemesis() {}

    public static List<Fault> schedule(long seed, Duration duration, List<String> targets, List<String> links) {
        Random random = new Random(seed);
        List<Fault> faults = new ArrayList<>();
        long at = FIRST.toMillis() + random.nextInt(10_000);
        while (at < duration.minus(QUIET_END).toMillis()) {
            int together = random.nextInt(5) == 0 ? 2 : 1;
            Set<String> hit = new HashSet<>();
            while (hit.size() < together) {
                boolean kill = random.nextBoolean();
                List<String> candidates = kill ? targets : links;
                String target = candidates.get(random.nextInt(candidates.size()));
                String action = kill ? KILL : Toxiproxy.FAULTS.get(random.nextInt(Toxiproxy.FAULTS.size()));
                Duration down = Duration.ofMillis(2_000 + random.nextInt(6_000));
                if (hit.add(target)) {
                    faults.add(new Fault(Duration.ofMillis(at), action, target, down));
                }
            }
            at += 10_000 + random.nextInt(30_000);
        }
        return faults;
    }

    /** Runs the schedule one moment after the other, so nothing is killed while it is still starting. */
    static List<Done> run(List<Fault> schedule, ChaosStack stack, long startNanos) throws InterruptedException {
        List<Done> done = new CopyOnWriteArrayList<>();
        for (List<Fault> moment : schedule.stream()
                .collect(groupingBy(Fault::at, TreeMap::new, toList()))
                .values()) {
            TimeUnit.NANOSECONDS.sleep(startNanos + moment.get(0).at().toNanos() - System.nanoTime());
            // a fault a thread: a worker restarted first waits for the Temporal killed with it
            List<Thread> faults = moment.stream()
                    .map(fault -> new Thread(() -> done.add(strike(stack, fault)), "nemesis-" + fault.target()))
                    .toList();
            faults.forEach(Thread::start);
            for (Thread fault : faults) {
                fault.join();
            }
        }
        return List.copyOf(done);
    }

    /** Injects {@code fault}, waits its time down and heals it, recording what shows each happened. */
    private static Done strike(ChaosStack stack, Fault fault) {
        ChaosStack.Target target = fault.kill() ? stack.target(fault.target()) : null;
        String step = "inject";
        long killed = -1;
        String broken = null;
        try {
            if (target != null) {
                killed = target.pid().getAsLong();
                target.kill().run();
            } else {
                broken = stack.toxiproxy().breakLink(fault.target(), fault.action());
            }
            System.out.println("nemesis: " + fault + " (" + (target != null ? "pid " + killed : broken) + ")");
            TimeUnit.MILLISECONDS.sleep(fault.down().toMillis());
            step = "heal";
            if (target != null) {
                target.restart().run();
            }
            Done done = target != null
                    ? new Done(fault, killed, target.pid().getAsLong(), null, null, null)
                    : new Done(fault, -1, -1, broken, stack.toxiproxy().healLink(fault.target(), fault.action()), null);
            System.out.println("nemesis: healed " + done);
            return done;
        } catch (Exception e) {
            return new Done(fault, killed, -1, broken, null, step + ": " + e);
        }
    }
}
