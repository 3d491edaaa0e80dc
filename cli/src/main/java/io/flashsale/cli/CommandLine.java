package io.flashsale.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Arguments of a command: words in order, {@code --name value} options (a later one wins) and the
 * {@code --flags} named as such.
 */
record CommandLine(List<String> words, Map<String, String> options, Set<String> flags) {

    /** @throws IllegalArgumentException an option without its value */
    static CommandLine parse(String[] args, Set<String> flagNames) {
        List<String> words = new ArrayList<>();
        Map<String, String> options = new HashMap<>();
        Set<String> flags = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                words.add(args[i]);
            } else if (flagNames.contains(args[i].substring(2))) {
                flags.add(args[i].substring(2));
            } else if (i + 1 < args.length) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
        }
        return new CommandLine(List.copyOf(words), Map.copyOf(options), Set.copyOf(flags));
    }

    /** The {@code index}-th word. @throws IllegalArgumentException when there are fewer words */
    String word(int index, String what) {
        if (index >= words.size()) {
            throw new IllegalArgumentException(words.isEmpty() ? "a command is required" : what + " is required");
        }
        return words.get(index);
    }

    /** The {@code index}-th word as a positive number. */
    int number(int index, String what) {
        try {
            int value = Integer.parseInt(word(index, what));
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new IllegalArgumentException(what + " must be a positive whole number");
    }

    String option(String name, String otherwise) {
        return options.getOrDefault(name, otherwise);
    }
}
