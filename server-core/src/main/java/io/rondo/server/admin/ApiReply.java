package io.rondo.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a route answers: a status, headers and a body of known length.
 *
 * @param status      the HTTP status
 * @param contentType the body's media type, or null for no body
 * @param headers     headers beside Content-Type and Content-Length
 * @param body        the body's bytes
 * @param events      for an event stream: what takes the connection once the headers are sent; else null
 */
public record ApiReply(int status, String contentType, Map<String, String> headers, byte[] body,
                       EventSource events) {

    /** What feeds an event stream's connection after its headers, until it closes. */
    @FunctionalInterface
    public interface EventSource {
        /** Takes over the connection, writing the stream's chunks to it. */
        void attach(io.netty.channel.Channel channel);
    }

    /** A reply of known length. */
    public ApiReply(int status, String contentType, Map<String, String> headers, byte[] body) {
        this(status, contentType, headers, body, null);
    }

    /** A {@code text/event-stream} of unknown length that {@code source} writes. */
    public static ApiReply eventStream(EventSource source) {
        ApiReply reply = new ApiReply(200, "text/event-stream; charset=utf-8", new LinkedHashMap<>(), new byte[0],
            source);
        reply.headers().put("Cache-Control", "no-store");
        return reply;
    }

    /** Some bytes of a type. */
    public static ApiReply bytes(int status, String contentType, byte[] body) {
        return new ApiReply(status, contentType, new LinkedHashMap<>(), body);
    }

    /** The JSON mapper of every admin body: null fields are written as null, records by their components. */
    public static final ObjectMapper JSON = new ObjectMapper();

    /** A JSON body. */
    public static ApiReply json(int status, Object body) {
        try {
            return new ApiReply(status, "application/json", new LinkedHashMap<>(), JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + body.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** 200 with a JSON body. */
    public static ApiReply ok(Object body) {
        return json(200, body);
    }

    /** 204. */
    public static ApiReply noContent() {
        return new ApiReply(204, null, new LinkedHashMap<>(), new byte[0]);
    }

    /**
     * 304 with no body: the client's copy, named by {@code etag}, is current; {@code no-cache} so it
     * asks again before each use.
     */
    public static ApiReply notModified(String etag) {
        return new ApiReply(304, null, new LinkedHashMap<>(), new byte[0]).header("ETag", etag)
            .header("Cache-Control", "no-cache");
    }

    /** A problem as {@code application/problem+json}. */
    public static ApiReply problem(Problem problem) {
        try {
            ApiReply reply = new ApiReply(problem.status(), "application/problem+json", new LinkedHashMap<>(),
                JSON.writeValueAsBytes(problem.body()));
            reply.headers().putAll(problem.headers());
            return reply;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a problem as JSON", e);
        }
    }

    /** Adds a header. */
    public ApiReply header(String name, String value) {
        headers.put(name, value);
        return this;
    }
}
