package io.flashsale.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The requests of a run as vegeta's JSON targets ({@code vegeta attack -format=json}), one line
 * each: the same bytes {@link HttpLoad} would send, read back into method, URL (from the Host
 * header), headers and body (base64), so both generators send the very same requests. Host and
 * Content-Length are left to vegeta's HTTP client, which writes them itself.
 */
final class VegetaTargets {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> DERIVED = List.of("host", "content-length");

    private VegetaTargets() {}

    /** One raw HTTP/1.1 request as a line of vegeta's JSON targets format (no line break). */
    static String line(byte[] request) {
        int headEnd = indexOf(request, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (headEnd < 0) {
            throw new IllegalArgumentException("not an HTTP request: no blank line after the headers");
        }
        String[] head = new String(request, 0, headEnd, StandardCharsets.UTF_8).split("\r\n");
        String[] requestLine = head[0].split(" ");
        ObjectNode target = JSON.createObjectNode().put("method", requestLine[0]);
        ObjectNode headers = JSON.createObjectNode();
        String host = null;
        for (int i = 1; i < head.length; i++) {
            int colon = head[i].indexOf(':');
            String name = head[i].substring(0, colon).trim();
            String value = head[i].substring(colon + 1).trim();
            if (name.equalsIgnoreCase("host")) {
                host = value;
            }
            if (!DERIVED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                (headers.has(name) ? (ArrayNode) headers.get(name) : headers.putArray(name)).add(value);
            }
        }
        if (host == null) {
            throw new IllegalArgumentException("no Host header in " + head[0]);
        }
        target.put("url", "http://" + host + requestLine[1]);
        if (!headers.isEmpty()) {
            target.set("header", headers);
        }
        byte[] body = Arrays.copyOfRange(request, headEnd + 4, request.length);
        if (body.length > 0) {
            target.put("body", body);
        }
        return target.toString();
    }

    private static int indexOf(byte[] bytes, byte[] marker) {
        outer:
        for (int i = 0; i <= bytes.length - marker.length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (bytes[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
