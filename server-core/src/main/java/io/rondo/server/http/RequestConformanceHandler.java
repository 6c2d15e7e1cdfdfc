package io.rondo.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * RFC 9112's rules for a request message, applied as its head arrives and before anything
 * answers it (an object, a folder, the WebSocket upgrade alike):
 *
 * <ul>
 *   <li>a version other than HTTP/1.x is 505 (Section 2.3); a later HTTP/1 minor version is
 *       served as HTTP/1.1, the highest this server speaks (RFC 9110 Section 6.2);</li>
 *   <li>an HTTP/1.1 request with no Host, any request with more than one, or one whose value is
 *       no {@code uri-host [":" port]}, is 400 (Section 3.2);</li>
 *   <li>a Transfer-Encoding other than a lone {@code chunked} is refused (Section 6.1): 400 when
 *       {@code chunked} is not its last coding, since the body's length cannot be told, and 501
 *       (a coding Rondo does not implement) otherwise; Rondo takes no compressed bodies;</li>
 *   <li>an absolute-form target ({@code http://host:port/path?query}, as sent to a proxy) is
 *       served by its path and query (Section 3.2.2): Rondo has one set of objects, whatever the
 *       authority.</li>
 * </ul>
 *
 * A refused request goes on as a failed one ({@link RefusedRequest}), so it is answered in its
 * turn, after the pipelined requests before it, and its answer closes the connection: what the
 * client sends after it is dropped unread, since where its next request would begin is not to be
 * trusted. A request the decoder already failed passes through, to be answered with the status
 * that says why.
 */
public final class RequestConformanceHandler extends ChannelInboundHandlerAdapter {

    private boolean refused;

    /** The rules for one connection (it remembers a refusal: nothing after it is read). */
    public RequestConformanceHandler() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request && request.decoderResult().isSuccess()) {
            Refusal refusal = refusal(request);
            if (refusal != null) {
                refused = true;
                request.setDecoderResult(DecoderResult.failure(new RefusedRequest(refusal.status(), refusal.why())));
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** The answer to a request that breaks a rule, and the rule. */
    private record Refusal(HttpResponseStatus status, String why) {
        static Refusal badRequest(String why) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, why);
        }
    }

    /** Why the request is refused, or null once it is fit to answer (its version and target made canonical). */
    private static Refusal refusal(HttpRequest request) {
        HttpVersion version = request.protocolVersion();
        if (!version.protocolName().equals("HTTP") || version.majorVersion() != 1) {
            return new Refusal(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                "only HTTP/1.0 and HTTP/1.1 are served here");
        }
        if (version.minorVersion() > 1) {
            request.setProtocolVersion(HttpVersion.HTTP_1_1);
        }
        Iterator<String> hosts = request.headers().valueStringIterator(HttpHeaderNames.HOST);
        String host = hosts.hasNext() ? hosts.next() : null;
        if (hosts.hasNext()) {
            return Refusal.badRequest("a request has one Host header");
        }
        if (host == null && request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
            return Refusal.badRequest("an HTTP/1.1 request needs a Host header");
        }
        if (host != null && !validHost(host)) {
            return Refusal.badRequest("the Host header is not a host");
        }
        if (request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            Refusal coding = transferCoding(request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING));
            if (coding != null) {
                return coding;
            }
        }
        String target = request.uri();
        if (!target.startsWith("/") && absoluteForm(target)) {
            request.setUri(originForm(target));
        }
        return null;
    }

    /** Why a request's Transfer-Encoding codings are refused; null for none, or a lone chunked. */
    private static Refusal transferCoding(List<String> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<String> codings = new ArrayList<>();
        for (String value : values) {
            for (String coding : value.split(",", -1)) {
                codings.add(coding.strip().toLowerCase(Locale.ROOT));
            }
        }
        if (codings.size() == 1 && codings.get(0).equals("chunked")) {
            return null;
        }
        if (!codings.get(codings.size() - 1).equals("chunked")) {
            return Refusal.badRequest("chunked must be the last Transfer-Encoding, or the body's length is unknown");
        }
        return new Refusal(HttpResponseStatus.NOT_IMPLEMENTED, "only the chunked Transfer-Encoding is taken here, "
            + "not " + String.join(", ", codings));
    }

    /** A Host value as RFC 3986 writes an authority without user info: reg-name or IP literal, and a port. */
    static boolean validHost(String host) {
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "-._~%!$&'()*+,;=:[]".indexOf(c) >= 0;
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    private static boolean absoluteForm(String target) {
        String lower = target.toLowerCase(Locale.ROOT);
        return lower.startsWith("http://") || lower.startsWith("https://");
    }

    /** The path and query of an absolute-form target; "/" when it has no path (RFC 9112 Section 3.2.1). */
    static String originForm(String target) {
        int authority = target.indexOf("://") + 3;
        int end = authority;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        String rest = target.substring(end);
        return rest.startsWith("/") ? rest : "/" + rest;
    }
}
