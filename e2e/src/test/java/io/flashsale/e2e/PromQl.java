package io.flashsale.e2e;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric names a PromQL expression reads, without a parser: what is left once labels and ranges go. */
final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    /** An identifier that is not part of a number, a duration or a Grafana variable, nor a function call. */
    private static final Pattern NAME = Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\\s*\\()");

    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "offset",
            "inf",
            "nan");

    private PromQl() {}

    static Set<String> metricNames(String expression) {
        String names = LABEL_LIST
                .matcher(RANGE.matcher(
                                MATCHERS.matcher(STRING.matcher(expression).replaceAll("\"\""))
                                        .replaceAll(""))
                        .replaceAll(""))
                .replaceAll("");
        Set<String> metrics = new TreeSet<>();
        Matcher name = NAME.matcher(names);
        while (name.find()) {
            if (!KEYWORDS.contains(name.group().toLowerCase())) {
                metrics.add(name.group());
            }
        }
        return metrics;
    }
}
