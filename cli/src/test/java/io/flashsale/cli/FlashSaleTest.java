package io.flashsale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Every command of the one main: its help renders, and a bad option is a usage error that calls nothing. */
class FlashSaleTest {

    /** Arguments that each command would run with. */
    private static final Map<String, List<String>> VALID = Map.ofEntries(
            Map.entry("flashsale token", List.of("--user", "ann")),
            Map.entry("flashsale sale create", List.of("--stock", "1", "--price", "100")),
            Map.entry("flashsale sale show", List.of("s1")),
            Map.entry("flashsale sale close", List.of("s1")),
            Map.entry("flashsale sale restock", List.of("s1", "1")),
            Map.entry("flashsale sale withdraw", List.of("s1", "1")),
            Map.entry("flashsale sale move", List.of("s1")),
            Map.entry("flashsale worker start", List.of("b")),
            Map.entry("flashsale worker ramp", List.of("b", "50")),
            Map.entry("flashsale worker current", List.of("b")),
            Map.entry("flashsale worker stop", List.of("b")));

    /** A command as the words that name it, and whether it talks to an api of {@code --api}. */
    record Command(List<String> words, boolean takesApi) {
        String[] with(String... args) {
            return Stream.concat(words.stream(), Stream.of(args)).toArray(String[]::new);
        }

        @Override
        public String toString() {
            return String.join(
                    " ", Stream.concat(Stream.of("flashsale"), words.stream()).toList());
        }
    }

    static List<Command> commands() {
        List<Command> commands = new ArrayList<>();
        collect(FlashSale.commandLine(), List.of(), commands);
        return commands;
    }

    /** The commands but picocli's generate-completion, a help command that takes any argument. */
    static Stream<Command> operatorCommands() {
        return commands().stream().filter(command -> !command.words().contains("generate-completion"));
    }

    private static void collect(CommandLine command, List<String> words, List<Command> commands) {
        commands.add(new Command(words, command.getCommandSpec().findOption("--api") != null));
        command.getSubcommands().forEach((name, sub) -> {
            List<String> longer = new ArrayList<>(words);
            longer.add(name);
            collect(sub, longer, commands);
        });
    }

    @Test
    void hasTheOperatorsCommands() {
        assertThat(commands())
                .map(Command::toString)
                .containsExactlyInAnyOrder(
                        "flashsale",
                        "flashsale token",
                        "flashsale sale",
                        "flashsale sale create",
                        "flashsale sale list",
                        "flashsale sale show",
                        "flashsale sale close",
                        "flashsale sale restock",
                        "flashsale sale withdraw",
                        "flashsale sale move",
                        "flashsale audit",
                        "flashsale demo",
                        "flashsale bench",
                        "flashsale chaos",
                        "flashsale up",
                        "flashsale down",
                        "flashsale status",
                        "flashsale logs",
                        "flashsale reset",
                        "flashsale worker",
                        "flashsale worker start",
                        "flashsale worker ramp",
                        "flashsale worker current",
                        "flashsale worker status",
                        "flashsale worker stop",
                        "flashsale generate-completion");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void printsItsHelp(Command command) {
        Cli.Run run = Cli.run(command.with("--help"));

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("Usage: " + command + " [-").contains("-h, --help");
        assertThat(run.err()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("operatorCommands")
    void refusesAnUnknownOptionWithExit2AndItsUsageCallingNoApi(Command command) throws Exception {
        try (FakeApi api = new FakeApi(Map.of())) {
            List<String> args = new ArrayList<>(VALID.getOrDefault(command.toString(), List.of()));
            if (command.takesApi()) {
                args.addAll(List.of("--api", api.url()));
            }
            args.add("--no-such-option");

            Cli.Run run = Cli.run(command.with(args.toArray(String[]::new)));

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.out()).isEmpty();
            assertThat(run.err())
                    .startsWith("Unknown option: '--no-such-option'")
                    .contains("Usage: " + command);
            assertThat(api.asked()).isEmpty();
        }
    }
}
