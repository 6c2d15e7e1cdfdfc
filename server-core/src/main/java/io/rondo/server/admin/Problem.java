package io.rondo.server.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error as RFC 9457 problem details: {@code type} ({@code urn:rondo:problem:CODE}), {@code title},
 * {@code status}, {@code detail}, Rondo's {@code code}, and extension fields such as {@code field}.
 * Every error the admin port answers is one, as {@code application/problem+json}.
 */
public final class Problem extends RuntimeException {

    private final int status;
    private final String code;
    private final String title;
    private final Map<String, Object> extensions = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Problem(int status, String code, String title, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
    }

    /** 400: a malformed request: bad JSON, a bad query parameter or field, named by {@code field}. */
    public static Problem invalid(String field, String detail) {
        Problem problem = new Problem(400, "invalid-request", "Invalid request", detail);
        return field == null ? problem : problem.with("field", field);
    }

    /**
     * A request that breaks HTTP/1.1's message rules, answered with the status the rule gives:
     * 414 (request line), 431 (headers), 501 (a transfer coding), 505 (the version).
     */
    public static Problem malformed(int status, String detail) {
        return new Problem(status, "malformed-request", "Malformed request", detail);
    }

    /** 401: no token, or one Rondo does not know. */
    public static Problem unauthorized(String detail, boolean tokenGiven) {
        return new Problem(401, "unauthorized", "Unauthorized", detail).header("WWW-Authenticate",
            tokenGiven ? "Bearer realm=\"rondo\", error=\"invalid_token\"" : "Bearer realm=\"rondo\"");
    }

    /** 403: a read token asking for a change. */
    public static Problem forbidden(String detail) {
        return new Problem(403, "forbidden", "Forbidden", detail).header("WWW-Authenticate",
            "Bearer realm=\"rondo\", error=\"insufficient_scope\", scope=\"admin\"");
    }

    public static Problem notFound(String detail) {
        return new Problem(404, "not-found", "Not found", detail);
    }

    /** 405, with the methods the resource takes. */
    public static Problem methodNotAllowed(String method, String path, String allow) {
        return new Problem(405, "method-not-allowed", "Method not allowed", path + " does not take " + method
            + "; it takes " + allow).header("Allow", allow);
    }

    public static Problem notAcceptable(String detail) {
        return new Problem(406, "not-acceptable", "Not acceptable", detail);
    }

    public static Problem conflict(String detail) {
        return new Problem(409, "conflict", "Conflict", detail);
    }

    public static Problem preconditionFailed(String detail) {
        return new Problem(412, "precondition-failed", "Precondition failed", detail);
    }

    public static Problem payloadTooLarge(String detail) {
        return new Problem(413, "payload-too-large", "Payload too large", detail);
    }

    public static Problem unsupportedMediaType(String detail) {
        return new Problem(415, "unsupported-media-type", "Unsupported media type", detail);
    }

    /** 422: a well-formed request Rondo cannot carry out, the reason in {@code detail}. */
    public static Problem unprocessable(String field, String detail) {
        return new Problem(422, "unprocessable", "Cannot be applied", detail).with("field", field);
    }

    /** 428: a change that needs {@code If-Match}. */
    public static Problem preconditionRequired(String detail) {
        return new Problem(428, "precondition-required", "Precondition required", detail);
    }

    /** 503: the server is starting or draining. */
    public static Problem notReady(String state, String detail) {
        return new Problem(503, "not-ready", "Not ready", detail).with("state", state).header("Retry-After", "5");
    }

    /**
     * 503: a queue of the admin port's work is full (docs/admin-api.md says which and how long);
     * the client may try again after {@code Retry-After}.
     */
    public static Problem busy(String detail) {
        return new Problem(503, "busy", "Busy", detail).header("Retry-After", "1");
    }

    /** 429: a live publisher sent faster than the peak rate it declared; its recording was ended. */
    public static Problem rateExceeded(String detail) {
        return new Problem(429, "rate-exceeded", "Rate exceeded", detail);
    }

    /**
     * 503: admission refused a recording, a disk's round, the buffers or the network having no room
     * for it now; the client may try again after {@code Retry-After}.
     */
    public static Problem noCapacity(String detail, int retryAfterSeconds) {
        return new Problem(503, "no-capacity", "No capacity", detail).header("Retry-After",
            Integer.toString(Math.max(1, retryAfterSeconds)));
    }

    /** 507: the disk a recording is written to is full. */
    public static Problem diskFull(String detail) {
        return new Problem(507, "disk-full", "Disk full", detail);
    }

    /** 500 saying why: a recording's write to its disk failed. */
    public static Problem writeFailed(String detail) {
        return new Problem(500, "write-failed", "Write failed", detail);
    }

    /** 500: a failure Rondo did not foresee; the detail is logged, not sent. */
    public static Problem internal() {
        return new Problem(500, "internal", "Internal error",
            "the admin port failed to answer; the server's log has the reason");
    }

    /** Adds an extension field. */
    public Problem with(String name, Object value) {
        extensions.put(name, value);
        return this;
    }

    /** Adds a response header. */
    public Problem header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** The response headers beside the body. */
    public Map<String, String> headers() {
        return headers;
    }

    /** The body's fields in order. */
    public Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "urn:rondo:problem:" + code);
        body.put("title", title);
        body.put("status", status);
        body.put("detail", getMessage());
        body.put("code", code);
        body.putAll(extensions);
        return body;
    }
}
