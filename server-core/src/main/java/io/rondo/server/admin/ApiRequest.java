package io.rondo.server.admin;

import io.netty.handler.codec.http.HttpHeaders;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * A request to the admin port as a route sees it: the path's variables, the query, the headers,
 * the body (small routes only: an upload reads its body as it streams) and the caller's scope.
 *
 * @param method     the HTTP method
 * @param path       the decoded path
 * @param variables  the route's path variables by name ({@code id}, {@code name})
 * @param query      the query parameters
 * @param headers    the request's headers
 * @param body       the body, empty if none
 * @param remote     the caller's address
 * @param scope      what the caller's token allows
 */
public record ApiRequest(String method, String path, Map<String, String> variables, Map<String, List<String>> query,
                         HttpHeaders headers, byte[] body, InetSocketAddress remote, Scope scope) {

    /** A path variable. */
    public String variable(String name) {
        return variables.get(name);
    }

    /** A query parameter's single value, or null. */
    public String param(String name) {
        List<String> values = query.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw Problem.invalid(name, "the query parameter " + name + " is given " + values.size() + " times");
        }
        return values.get(0);
    }

    /** An integer query parameter within bounds, or {@code defaultValue}. */
    public int intParam(String name, int defaultValue, int min, int max) {
        String text = param(name);
        if (text == null) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw Problem.invalid(name, name + " must be a whole number from " + min + " to " + max + ", was '" + text
            + "'");
    }

    /** A true/false query parameter, false if absent. */
    public boolean flag(String name) {
        String text = param(name);
        if (text == null || text.equals("false")) {
            return false;
        }
        if (text.equals("true")) {
            return true;
        }
        throw Problem.invalid(name, name + " must be true or false, was '" + text + "'");
    }
}
