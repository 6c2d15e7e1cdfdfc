package io.rondo.server.cli.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * A client of a running server's admin API ({@code /api/v1} on the admin port): requests with the
 * bearer token, JSON answers read with Jackson, and every error the server answers (RFC 9457
 * problem details) turned into one line with the status and the server's own detail.
 */
final class AdminClient {

    /** The mapper of every body the commands read and write. */
    static final ObjectMapper JSON = new ObjectMapper();

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long an answer may take; an upload has none, as ingesting a large file takes what it takes. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    /**
     * An answer of the server with a 2xx status.
     *
     * @param status  the status
     * @param headers its headers
     * @param body    its JSON body, or a missing node if it had none
     */
    record Reply(int status, HttpHeaders headers, JsonNode body) {

        /** The entity tag, or null. */
        String etag() {
            return headers.firstValue("ETag").orElse(null);
        }
    }

    private final HttpClient http;
    private final URI base;
    private final String token;
    private final String tokenSource;

    /**
     * @param base        the admin port's URL, {@code http://127.0.0.1:8081}, without a path
     * @param token       the bearer token
     * @param tokenSource where the token came from, named when the server does not know it
     * @param tls         the TLS context of an https URL, or null for Java's own (its trusted authorities)
     */
    AdminClient(URI base, String token, String tokenSource, SSLContext tls) {
        HttpClient.Builder builder = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT);
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.http = builder.build();
        this.base = base;
        this.token = token;
        this.tokenSource = tokenSource;
    }

    /** The admin port's URL. */
    URI base() {
        return base;
    }

    Reply get(String path) {
        return send(request(path).timeout(ANSWER_TIMEOUT).GET());
    }

    Reply delete(String path) {
        return send(request(path).timeout(ANSWER_TIMEOUT).DELETE());
    }

    /** Posts no body. */
    Reply post(String path) {
        return send(request(path).timeout(ANSWER_TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** Posts a JSON body. */
    Reply post(String path, JsonNode json) {
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree is always written", e);
        }
        return send(request(path).timeout(ANSWER_TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** An RFC 7396 merge patch of the resource whose entity tag is {@code etag} (null: none was given). */
    Reply mergePatch(String path, String etag, JsonNode patch) {
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(patch);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a merge patch is plain JSON", e);
        }
        HttpRequest.Builder request = request(path).timeout(ANSWER_TIMEOUT)
            .header("Content-Type", "application/merge-patch+json")
            .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(body));
        if (etag != null) {
            request.header("If-Match", etag);
        }
        return send(request);
    }

    /**
     * Puts a body of bytes. A refusal the server answers at once (a taken name, a body over its
     * limit) is read as soon as it comes, though the body is still being sent. There is no
     * {@code Expect: 100-continue}: Java 17's client waits forever for an answer that is not 100.
     */
    Reply put(String path, HttpRequest.BodyPublisher body) {
        return send(request(path)
            .header("Content-Type", "application/octet-stream")
            .PUT(body));
    }

    /** One path segment or query value, percent-encoded ({@code a b} is {@code a%20b}). */
    static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", "Bearer " + token)
            .header("Accept", "application/json, application/problem+json");
    }

    private Reply send(HttpRequest.Builder builder) {
        HttpRequest request = builder.build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw unreachable("no connection within " + CONNECT_TIMEOUT.toSeconds() + " s");
        } catch (HttpTimeoutException e) {
            throw AdminException.unreachable("the admin API at " + base + " did not answer within "
                + ANSWER_TIMEOUT.toSeconds() + " s");
        } catch (IOException e) {
            throw unreachable(reason(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw AdminException.unreachable("interrupted while waiting for " + base);
        }
        int status = response.statusCode();
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        JsonNode body = JSON.missingNode();
        if (response.body().length > 0 && type.contains("json")) {
            try {
                body = JSON.readTree(response.body());
            } catch (IOException e) {
                throw AdminException.answered(status, "the server answered " + status + " with a body that is not "
                    + "JSON: " + e.getMessage());
            }
        } else if (response.body().length > 0 && status / 100 == 2) {
            throw notAdminPort(request, status, "with " + (type.isEmpty() ? "a body of no type" : type));
        }
        if (status / 100 == 2) {
            return new Reply(status, response.headers(), body);
        }
        throw problem(request, status, type, body);
    }

    /** An answer no admin port gives: most likely {@code --url} names another server, such as the HTTP port. */
    private AdminException notAdminPort(HttpRequest request, int status, String how) {
        return AdminException.answered(status, request.method() + " " + request.uri().getPath() + " answered " + status
            + " " + how + ": is " + base + " a Rondo admin port (rondo serve --admin-port)?");
    }

    /** An error answer as one line: the status, the problem's title and its detail. */
    private AdminException problem(HttpRequest request, int status, String type, JsonNode body) {
        if (!type.startsWith("application/problem+json") || !body.isObject()) {
            return notAdminPort(request, status, "without problem details");
        }
        String title = body.path("title").asText("");
        String detail = body.path("detail").asText("");
        StringBuilder line = new StringBuilder("the server answered ").append(status);
        if (!title.isEmpty()) {
            line.append(' ').append(title);
        }
        if (!detail.isEmpty()) {
            line.append(": ").append(detail);
        }
        if (status == 401) {
            line.append(" (the token came from ").append(tokenSource).append(')');
        }
        return AdminException.answered(status, line.toString());
    }

    private AdminException unreachable(String why) {
        return AdminException.unreachable("cannot reach the admin API at " + base + ": " + why
            + "; is rondo serve running there? --url names another address");
    }

    /** Why a request got no answer, in words. */
    private String reason(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
                return "unknown host " + base.getHost();
            }
            if (cause instanceof SSLException) {
                return "TLS failed: " + cause.getMessage();
            }
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                return cause.getMessage();
            }
        }
        return e instanceof ConnectException ? "connection refused" : e.getClass().getSimpleName();
    }
}
