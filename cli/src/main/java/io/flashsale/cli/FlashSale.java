package io.flashsale.cli;

import io.flashsale.bench.BenchCommand;
import io.flashsale.chaos.ChaosCommand;
import io.flashsale.cli.demo.DemoCommand;
import io.flashsale.launcher.local.LocalCommands;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * The operator's commands of {@code bin/flashsale} that have logic, one main. Every command exits 0
 * when done, 1 when the api refused or could not be reached, an audit found a violation or the demo
 * failed, 2 on a usage error. {@code generate-completion} (not in the help) prints a bash and zsh
 * completion script.
 */
@Command(
        name = "flashsale",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT,
        versionProvider = FlashSale.Version.class,
        showDefaultValues = true,
        description = {
            "The flash-sale system on this machine and its operator's commands.",
            "bin/flashsale runs this, after installing and starting MariaDB and Redis for 'up' (its own"
                    + " command 'stores') and building what is missing."
        },
        subcommands = {
            TokenCommand.class,
            SaleCommand.class,
            AuditCommand.class,
            DemoCommand.class,
            BenchCommand.class,
            ChaosCommand.class,
            AutoComplete.GenerateCompletion.class
        })
public final class FlashSale {

    public static void main(String[] args) {
        CommandLine flashSale = commandLine();
        int exitCode = flashSale.execute(args);
        flashSale.getOut().flush();
        System.exit(exitCode);
    }

    /**
     * The commands writing to stdout and stderr. A later option wins over an earlier one, as {@code
     * bin/flashsale} puts its defaults (the api's address) before the operator's arguments.
     */
    static CommandLine commandLine() {
        CommandLine flashSale = new CommandLine(new FlashSale());
        for (Class<?> local : LocalCommands.ALL) {
            flashSale.addSubcommand(local);
        }
        flashSale
                .setOverwrittenOptionsAllowed(true)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(FlashSale::unreachable)
                .setOut(new PrintWriter(System.out, true))
                .setErr(new PrintWriter(System.err, true));
        CommandLine completion = flashSale.getSubcommands().get("generate-completion");
        completion.getCommandSpec().usageMessage().hidden(true);
        return flashSale;
    }

    /** An api that cannot be reached fails the command (1) with one line; anything else is a bug. */
    private static int unreachable(Exception failure, CommandLine command, ParseResult parsed) throws Exception {
        if (!(failure instanceof UncheckedIOException unreachable)) {
            throw failure;
        }
        command.getErr()
                .println(command.getCommandSpec().qualifiedName() + ": cannot reach the api: "
                        + unreachable.getMessage());
        return 1;
    }

    /** The version the jar's manifest names. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"flashsale " + FlashSale.class.getPackage().getImplementationVersion()};
        }
    }
}
