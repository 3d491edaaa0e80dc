package io.flashsale.cli;

import io.flashsale.testkit.Tokens;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * {@code bin/flashsale token}: a bearer token for the dev api, signed like every token of the tests
 * ({@link Tokens}, HS256 over {@code FLASHSALE_JWT_SECRET}, else the dev secret): {@code sub} the
 * user, {@code scope} buyer (default), admin or payments, issued now, valid for {@code --ttl}
 * seconds (default 3600). The token is the last line printed, so {@code $(bin/flashsale token ... |
 * tail -1)} finds it after a build's output. Exits 2 on a usage error.
 */
public final class TokenCommand {

    static final String USAGE =
            """
            usage: bin/flashsale token --user U [--admin | --scope buyer|admin|payments] [--ttl SECONDS]
            """;

    private static final Set<String> SCOPES = Set.of("buyer", "admin", "payments");

    private TokenCommand() {}

    public static void main(String[] args) {
        System.exit(run(args, Tokens.fromEnvironment(), Instant.now(), System.out, System.err));
    }

    static int run(String[] args, Tokens tokens, Instant now, PrintStream out, PrintStream err) {
        try {
            CommandLine line = CommandLine.parse(args, Set.of("admin"));
            if (!line.words().isEmpty()) {
                throw new IllegalArgumentException("unexpected " + line.words().get(0));
            }
            String user = line.option("user", "");
            if (user.isBlank()) {
                throw new IllegalArgumentException("--user U is required");
            }
            String scope = line.option("scope", line.flags().contains("admin") ? "admin" : "buyer");
            if (!SCOPES.contains(scope) || (line.flags().contains("admin") && !scope.equals("admin"))) {
                throw new IllegalArgumentException("--scope must be buyer, admin or payments (--admin: admin)");
            }
            long ttl = seconds(line.option("ttl", "3600"));
            Map<String, Object> claims = Tokens.claims(user, scope, now.plusSeconds(ttl));
            claims.put("iat", now.getEpochSecond());
            out.println(tokens.sign(claims));
            return 0;
        } catch (IllegalArgumentException usage) {
            err.println("flashsale token: " + usage.getMessage());
            err.print(USAGE);
            return 2;
        }
    }

    private static long seconds(String ttl) {
        try {
            long seconds = Long.parseLong(ttl);
            if (seconds > 0) {
                return seconds;
            }
        } catch (NumberFormatException notANumber) {
            // refused below
        }
        throw new IllegalArgumentException("--ttl must be a positive number of seconds");
    }
}
