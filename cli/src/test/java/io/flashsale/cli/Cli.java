package io.flashsale.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The one main as {@code bin/flashsale} runs it, what it printed kept. */
final class Cli {

    record Run(int exitCode, String out, String err) {}

    private Cli() {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = FlashSale.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
