package io.rondo.server.admin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One resource method of the admin port: a method, a path template and the scope it needs.
 * Templates are literal segments and variables: {@code {id}} matches one segment, {@code {name+}}
 * the rest of the path (an object's name, slashes included), optionally followed by literal
 * segments ({@code /api/v1/objects/{name+}/move}).
 *
 * @param method   the HTTP method
 * @param template the path template
 * @param scope    the scope a caller needs
 * @param action   what it does with a request whose body is read, or null for an upload
 * @param upload   what it does with a body as it streams in, or null
 * @param live     whether the body is a live stream: of no set length (admin.maxUpload does not
 *                 apply), and answered whenever its sink says, before it ends if need be
 */
public record Route(String method, String template, Scope scope, Action action, Upload upload, boolean live) {

    /** A route whose body is read whole (up to the admin port's small-body limit) before it runs. */
    public static Route of(String method, String template, Scope scope, Action action) {
        return new Route(method, template, scope, action, null, false);
    }

    /** A route that takes its body as it arrives, never whole in memory, up to admin.maxUpload. */
    public static Route upload(String method, String template, Scope scope, Upload upload) {
        return new Route(method, template, scope, null, upload, false);
    }

    /**
     * A route whose body is a live stream (a recording's media): taken as it arrives, of any length,
     * and answered when its sink's {@link UploadSink#answered()} completes, even before the body ends.
     */
    public static Route live(String method, String template, Scope scope, Upload upload) {
        return new Route(method, template, scope, null, upload, true);
    }

    /**
     * Opens the sink of a streamed body; the request it is given has an empty body, {@code loop} is
     * the connection's event loop, where every call to the sink is made.
     */
    @FunctionalInterface
    public interface Upload {
        UploadSink open(ApiRequest request, Executor loop) throws Exception;
    }

    /**
     * Where a streamed body goes. Calls come from the connection's event loop one at a time:
     * the next {@link #write} only after the last one's future completed.
     */
    public interface UploadSink {
        /** Takes (and releases) one piece of the body; completes when the next piece may come. */
        CompletableFuture<Void> write(io.netty.buffer.ByteBuf piece);

        /** The body is complete: the reply. */
        CompletableFuture<ApiReply> finish();

        /** The body will not complete (the client left, or a limit was passed): undo what was written. */
        void abort();

        /**
         * The reply, should the sink give one before the body ends (a live recording refused, or
         * ended by its disk or an operator): the rest of the body is then dropped. Null: it never does.
         */
        default CompletableFuture<ApiReply> answered() {
            return null;
        }
    }

    /** What a route does with a request whose body has been read. */
    @FunctionalInterface
    public interface Action {
        /** The reply, or a future of it; a {@link Problem} thrown or completed with becomes its problem reply. */
        CompletableFuture<ApiReply> handle(ApiRequest request) throws Exception;
    }

    /** A route whose action answers at once. */
    public static Route sync(String method, String template, Scope scope, SyncAction action) {
        return of(method, template, scope, request -> CompletableFuture.completedFuture(action.handle(request)));
    }

    /** An action that answers at once. */
    @FunctionalInterface
    public interface SyncAction {
        ApiReply handle(ApiRequest request) throws Exception;
    }

    /** The variables of {@code segments} (the request path split at '/'), or null if the path is not this route's. */
    Map<String, String> match(List<String> segments) {
        List<String> parts = split(template);
        Map<String, String> variables = new LinkedHashMap<>();
        int rest = -1;
        for (int i = 0; i < parts.size(); i++) {
            if (parts.get(i).endsWith("+}")) {
                rest = i;
                break;
            }
        }
        if (rest < 0) {
            if (parts.size() != segments.size()) {
                return null;
            }
            return matchSegments(parts, segments, variables) ? variables : null;
        }
        int tail = parts.size() - rest - 1;
        if (segments.size() < parts.size()) {
            return null;
        }
        if (!matchSegments(parts.subList(0, rest), segments.subList(0, rest), variables)
            || !matchSegments(parts.subList(rest + 1, parts.size()),
                segments.subList(segments.size() - tail, segments.size()), variables)) {
            return null;
        }
        String name = parts.get(rest);
        variables.put(name.substring(1, name.length() - 2),
            String.join("/", segments.subList(rest, segments.size() - tail)));
        return variables;
    }

    private static boolean matchSegments(List<String> parts, List<String> segments, Map<String, String> variables) {
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            if (part.startsWith("{")) {
                if (segments.get(i).isEmpty()) {
                    return false;
                }
                variables.put(part.substring(1, part.length() - 1), segments.get(i));
            } else if (!part.equals(segments.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** A path's segments: {@code /a/b} is [a, b]; {@code /} is []. */
    static List<String> split(String path) {
        List<String> segments = new ArrayList<>();
        int start = 1;
        if (path.length() <= 1) {
            return segments;
        }
        while (true) {
            int slash = path.indexOf('/', start);
            if (slash < 0) {
                segments.add(path.substring(start));
                return segments;
            }
            segments.add(path.substring(start, slash));
            start = slash + 1;
        }
    }
}
