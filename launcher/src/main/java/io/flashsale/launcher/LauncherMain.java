package io.flashsale.launcher;

import io.flashsale.launcher.local.LocalCommands;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The local system's commands ({@link LocalCommands}) where the launcher runs on a class path of
 * its own, as in the tests: how a private stack starts the dev server's fallback ({@code test-server}).
 */
@Command(name = "flashsale", mixinStandardHelpOptions = true)
public final class LauncherMain {

    public static void main(String[] args) {
        // named apart from logback.xml, so the jar configures no logging where it is a library
        System.setProperty("logback.configurationFile", "launcher-logback.xml");
        CommandLine line = new CommandLine(new LauncherMain());
        for (Class<?> command : LocalCommands.ALL) {
            line.addSubcommand(command);
        }
        System.exit(line.execute(args));
    }
}
