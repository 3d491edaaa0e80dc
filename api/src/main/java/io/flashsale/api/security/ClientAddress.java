package io.flashsale.api.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The client address a rate limit counts against: {@link HttpServletRequest#getRemoteAddr()}, the
 * TCP peer unless {@code server.forward-headers-strategy} lets a trusted proxy's X-Forwarded-For
 * speak for it. It becomes part of a Redis key, so anything but IPv4/IPv6 text is one shared bucket.
 */
public final class ClientAddress {

    static final String UNPARSABLE = "unparsable";

    private static final Pattern ADDRESS = Pattern.compile("[0-9a-f.:]{2,45}");

    private ClientAddress() {}

    public static String of(HttpServletRequest request) {
        return normalized(request.getRemoteAddr());
    }

    static String normalized(String address) {
        if (address == null) {
            return UNPARSABLE;
        }
        String lower = address.toLowerCase(Locale.ROOT);
        int zone = lower.indexOf('%');
        String plain = zone < 0 ? lower : lower.substring(0, zone);
        return ADDRESS.matcher(plain).matches() ? plain : UNPARSABLE;
    }
}
