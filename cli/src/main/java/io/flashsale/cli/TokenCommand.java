package io.flashsale.cli;

import io.flashsale.testkit.Tokens;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/flashsale token}: a bearer token signed as {@link Tokens} signs them, on the last line
 * printed, so {@code $(bin/flashsale token ... | tail -1)} finds it after a build's output.
 */
@Command(
        name = "token",
        description = {
            "Print a signed HS256 dev token (bearer JWT) on the last line: sub U, issued now.",
            "Signed with FLASHSALE_JWT_SECRET, else the dev secret."
        })
final class TokenCommand implements Runnable {

    /** What the token lets its bearer do; its claim is the name in lower case. */
    enum Scope {
        BUYER,
        ADMIN,
        PAYMENTS;

        /** The token's {@code scope} claim, as {@code --scope} names it. */
        String claim() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Spec
    private CommandSpec spec;

    @Option(names = "--user", paramLabel = "U", required = true, description = "the token's subject")
    private String user;

    @Option(names = "--admin", description = "scope admin")
    private boolean admin;

    @Option(
            names = "--scope",
            paramLabel = "buyer|admin|payments",
            description = "buyer (the default), admin, or payments (the payment service: confirms payments)")
    private Scope scope;

    @Option(
            names = "--ttl",
            paramLabel = "SECONDS",
            defaultValue = "3600",
            converter = PositiveNumber.class,
            description = "how long the token is valid")
    private int ttl;

    @Override
    public void run() {
        if (admin && scope != null && scope != Scope.ADMIN) {
            throw new ParameterException(spec.commandLine(), "--admin is --scope admin, not --scope " + scope.claim());
        }
        Instant now = Instant.now();
        Scope chosen = admin ? Scope.ADMIN : scope == null ? Scope.BUYER : scope;
        Map<String, Object> claims = Tokens.claims(user, chosen.claim(), now.plusSeconds(ttl));
        claims.put("iat", now.getEpochSecond());
        spec.commandLine().getOut().println(Tokens.fromEnvironment().sign(claims));
    }
}
