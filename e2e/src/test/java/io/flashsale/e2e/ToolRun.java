package io.flashsale.e2e;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What a command-line tool printed (stdout and stderr together) and its exit code. */
record ToolRun(int exitCode, String output) {

    /** Runs {@code command} to its end, failing the test when it takes longer than {@code timeout}. */
    static ToolRun of(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return of(new ProcessBuilder(command), timeout);
    }

    /** The same with {@code input} as the command's standard input. */
    static ToolRun of(List<String> command, Path input, Duration timeout) throws IOException, InterruptedException {
        return of(new ProcessBuilder(command).redirectInput(input.toFile()), timeout);
    }

    /** The output goes to a file, not a pipe: a tool that hangs with its output open still times out. */
    private static ToolRun of(ProcessBuilder builder, Duration timeout) throws IOException, InterruptedException {
        Path output = Files.createTempFile("tool-run", ".log");
        try {
            Process process = builder.redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(builder.command().get(0) + " did not finish within " + timeout + ": " + builder.command());
            }
            return new ToolRun(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
