package io.flashsale.bench.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The faults of a chaos run, decided by its seed before it starts: every 10 to 40 s a SIGKILL of
 * one of the stack's processes ({@link ChaosStack#TARGETS}), started again 2 to 8 s later; now and
 * then a second one at the same moment. The same seed and duration give the same schedule. Each
 * fault is recorded with the pid it killed and the pid that replaced it.
 */
public final class Nemesis {

    /** One planned fault: at {@code at} after the start, {@code target} killed for {@code down}. */
    public record Fault(Duration at, String target, Duration down) {
        @Override
        public String toString() {
            return String.format("%6.1fs kill %-9s for %4.1fs", at.toMillis() / 1e3, target, down.toMillis() / 1e3);
        }
    }

    /** What a fault did: the pid killed and the pid that runs after the restart. */
    public record Done(Fault fault, long killedPid, long restartedPid, String failure) {}

    private static final Duration FIRST = Duration.ofSeconds(10);
    /** Nothing is killed this close to the end, so every restart is done before the load stops. */
    private static final Duration QUIET_END = Duration.ofSeconds(15);

    private final List<Fault> schedule;
    private final List<Done> done = new CopyOnWriteArrayList<>();

    Nemesis(List<Fault> schedule) {
        this.schedule = List.copyOf(schedule);
    }

    public static List<Fault> schedule(long seed, Duration duration) {
        Random random = new Random(seed);
        List<Fault> faults = new ArrayList<>();
        long at = FIRST.toMillis() + random.nextInt(10_000);
        while (at < duration.minus(QUIET_END).toMillis()) {
            List<String> targets = new ArrayList<>(ChaosStack.TARGETS);
            Collections.shuffle(targets, random);
            int together = random.nextInt(5) == 0 ? 2 : 1;
            for (String target : targets.subList(0, together)) {
                faults.add(new Fault(Duration.ofMillis(at), target, Duration.ofMillis(2_000 + random.nextInt(6_000))));
            }
            at += 10_000 + random.nextInt(30_000);
        }
        return faults;
    }

    List<Fault> faults() {
        return schedule;
    }

    List<Done> done() {
        return List.copyOf(done);
    }

    /** The schedule, one fault a line, headed by the seed; also written to {@code file}. */
    static String print(long seed, List<Fault> faults, Path file) throws IOException {
        String text = "seed " + seed + ", " + faults.size() + " faults\n"
                + faults.stream().map(Fault::toString).collect(Collectors.joining("\n")) + "\n";
        Files.writeString(file, text);
        return text;
    }

    /**
     * Runs the schedule against {@code stack} from {@code startNanos}, one moment after the other
     * (the faults of one moment together: all killed, then each started again after its time
     * down), so a process is never killed while it is still starting; a slow restart delays the
     * faults after it. Returns once every fault is done and every target runs again.
     */
    void run(ChaosStack stack, long startNanos) throws InterruptedException {
        Map<Duration, List<Fault>> moments = new TreeMap<>();
        schedule.forEach(fault ->
                moments.computeIfAbsent(fault.at(), at -> new ArrayList<>()).add(fault));
        for (List<Fault> moment : moments.values()) {
            sleepUntil(startNanos + moment.get(0).at().toNanos());
            Map<Fault, Long> killed = new LinkedHashMap<>();
            for (Fault fault : moment) {
                try {
                    killed.put(fault, stack.kill(fault.target()));
                    System.out.println("nemesis: killed " + fault.target() + " (pid " + killed.get(fault) + ")");
                } catch (Exception e) {
                    done.add(new Done(fault, -1, -1, "kill: " + e));
                }
            }
            long down = System.nanoTime();
            for (Fault fault : killed.keySet()) {
                sleepUntil(down + fault.down().toNanos());
                try {
                    stack.restart(fault.target());
                    long restarted = stack.pid(fault.target());
                    System.out.println("nemesis: " + fault.target() + " back (pid " + restarted + ")");
                    done.add(new Done(fault, killed.get(fault), restarted, null));
                } catch (Exception e) {
                    done.add(new Done(fault, killed.get(fault), -1, "restart: " + e));
                }
            }
        }
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
