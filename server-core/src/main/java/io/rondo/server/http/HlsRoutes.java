package io.rondo.server.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.MediaObject;
import io.rondo.server.hls.HlsCodecs;
import io.rondo.server.hls.HlsSegments;
import io.rondo.server.hls.Playlists;
import io.rondo.server.stream.HlsSession;
import io.rondo.server.stream.HlsSessions;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HLS over the HTTP port (docs/hls.md). {@code NAME.m3u8} is object {@code NAME}'s multivariant
 * playlist, unless an object has that very name: asking for it admits an HLS session, as an OPEN
 * is admitted (503 with Retry-After when the disks have no room). {@code NAME.m3u8?session=KEY} is
 * the session's media playlist; a recording's blocks while a reload asks for a part not yet cut
 * ({@code _HLS_msn}, {@code _HLS_part}). {@code NAME?session=KEY} with one byte range is a part or
 * a segment, answered from the session's reads ({@link HlsPartAnswer}); a range the session cannot
 * take, or a session that has ended, is left to the plain ranged GET, a D-request.
 */
final class HlsRoutes {

    /** What a playlist's URL adds to its object's name. */
    static final String PLAYLIST_SUFFIX = ".m3u8";

    private static final Pattern ONE_RANGE = Pattern.compile("bytes=(\\d{1,18})-(\\d{0,18})");

    /** Target durations a blocking reload waits at most, as the specification bounds it. */
    private static final int BLOCK_TARGETS = 3;

    private final Directory directory;
    private final HlsSessions sessions;
    private final long roundNs;

    /** @param roundNs the length of a round: a live playlist's part target */
    HlsRoutes(Directory directory, HlsSessions sessions, long roundNs) {
        this.directory = directory;
        this.sessions = sessions;
        this.roundNs = roundNs;
    }

    /** Whether {@code path} is a playlist: it ends in {@code .m3u8} and no object has that name. */
    boolean isPlaylist(String path) {
        return path.endsWith(PLAYLIST_SUFFIX) && path.length() > PLAYLIST_SUFFIX.length() + 1
            && directory.find(path).isEmpty();
    }

    /** Answers a playlist request; a recording's blocking reload is answered once it holds what it asks. */
    Pending playlist(ChannelHandlerContext ctx, FullHttpRequest request, String path,
                     Map<String, List<String>> parameters, Runnable done) {
        String name;
        try {
            name = ObjectNames.normalize(path.substring(0, path.length() - PLAYLIST_SUFFIX.length()));
        } catch (IllegalArgumentException e) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no such object", false);
            return null;
        }
        Optional<MediaObject> found = directory.find(name);
        if (found.isEmpty()) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no object is named " + name, false);
            return null;
        }
        String refusal = HlsCodecs.refusal(name, found.get().media());
        if (refusal != null) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, refusal, false);
            return null;
        }
        String key = first(parameters, Playlists.SESSION);
        Optional<HlsSession> known = sessions.find(key).filter(s -> s.objectId() == found.get().id());
        HlsSession session;
        if (known.isPresent()) {
            session = known.get();
            session.heard();
        } else {
            HlsSessions.Opened opened = sessions.open(name, ctx.channel().remoteAddress(), ctx.executor());
            if (opened instanceof HlsSessions.Refused no) {
                FullHttpResponse refused = HttpResponses.text(HttpResponseStatus.valueOf(no.status()), no.message());
                if (no.status() == HttpResponseStatus.SERVICE_UNAVAILABLE.code()) {
                    refused.headers().set(HttpHeaderNames.RETRY_AFTER, Integer.toString(no.retryAfterSeconds()));
                }
                HttpResponses.send(ctx, request, refused, false);
                return null;
            }
            session = ((HlsSessions.Admitted) opened).session();
        }
        if (key == null) {
            send(ctx, request, Playlists.multivariant(name, session.media(), session.key(),
                "1".equals(first(parameters, Playlists.PARTS))));
            return null;
        }
        long msn = number(first(parameters, "_HLS_msn"));
        long part = number(first(parameters, "_HLS_part"));
        if (msn == -2 || part == -2 || part >= 0 && msn < 0) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.BAD_REQUEST, "_HLS_msn must be a segment's number, "
                + "and _HLS_part a part's, given only with _HLS_msn", false);
            return null;
        }
        if (msn < 0 || !session.growing()) {
            send(ctx, request, Playlists.media(spec(name, session, parameters)));
            return null;
        }
        List<HlsSegments.Segment> segments = spec(name, session, parameters).segments();
        if (msn > segments.size() + 1) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.BAD_REQUEST, "segment " + msn + " is more than two "
                + "segments past the playlist's last (" + (segments.size() - 1) + ")", false);
            return null;
        }
        Reload reload = new Reload(ctx, request.retain(), session, spec(name, session, parameters), msn, part, done);
        reload.check();
        return reload;
    }

    /** A blocking playlist reload: answered once the playlist holds what it asks, or 503 after three targets. */
    private final class Reload implements Pending {
        private final ChannelHandlerContext ctx;
        private final FullHttpRequest request;
        private final HlsSession session;
        private final Playlists.Media spec;
        private final long msn;
        private final long part;
        private final Runnable done;
        private final io.netty.util.concurrent.ScheduledFuture<?> timeout;
        private boolean over;

        /** @param spec the playlist as it was asked for; its media is taken anew at each check */
        Reload(ChannelHandlerContext ctx, FullHttpRequest request, HlsSession session, Playlists.Media spec,
               long msn, long part, Runnable done) {
            this.ctx = ctx;
            this.request = request;
            this.session = session;
            this.spec = spec;
            this.msn = msn;
            this.part = part;
            this.done = done;
            this.timeout = ctx.executor().schedule(this::timedOut,
                BLOCK_TARGETS * HlsSegments.TARGET_NS, TimeUnit.NANOSECONDS);
        }

        void check() {
            if (over) {
                return;
            }
            session.heard();
            Playlists.Media now = spec.now(session.media(), session.growing());
            if (session.ended() || !now.growing() || Playlists.holds(now.segments(), msn, part)) {
                finish(() -> send(ctx, request, Playlists.media(now)));
            } else {
                session.awaitFragments(session.media().fragments().size() + 1)
                    .whenCompleteAsync((ready, failure) -> check(), ctx.executor());
            }
        }

        private void timedOut() {
            finish(() -> {
                FullHttpResponse busy = HttpResponses.text(HttpResponseStatus.SERVICE_UNAVAILABLE, "segment " + msn
                    + (part >= 0 ? " part " + part : "") + " was not recorded within three target durations");
                busy.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
                HttpResponses.send(ctx, request, busy, false);
            });
        }

        private void finish(Runnable answer) {
            if (over) {
                return;
            }
            over = true;
            timeout.cancel(false);
            answer.run();
            request.release();
            done.run();
        }

        @Override
        public void pump() {
            // The playlist is written whole once it holds what the reload asks; nothing to pump meanwhile.
        }

        @Override
        public void abandon() {
            if (!over) {
                over = true;
                timeout.cancel(false);
                request.release();
            }
        }
    }

    /**
     * A GET of a session's URL ({@code ?session=KEY}) with one byte range: answered from the session
     * if it can take the range, else null (counted), for the plain ranged GET to answer.
     */
    Pending part(ChannelHandlerContext ctx, FullHttpRequest request, String path,
                 Map<String, List<String>> parameters, Runnable done) {
        Optional<HlsSession> session = sessions.find(first(parameters, Playlists.SESSION));
        String range = request.headers().get(HttpHeaderNames.RANGE);
        Matcher one = range == null ? null : ONE_RANGE.matcher(range.trim());
        if (session.isEmpty() || !request.method().equals(HttpMethod.GET) || one == null || !one.matches()
            || request.headers().contains(HttpHeaderNames.IF_RANGE)
            || !sameObject(path, session.get())) {
            sessions.fromDisk();
            return null;
        }
        long from = Long.parseLong(one.group(1));
        long length = one.group(2).isEmpty() ? -1 : Long.parseLong(one.group(2)) - from + 1;
        if (length == 0 || length < -1) {
            sessions.fromDisk();
            return null;
        }
        HlsPartAnswer answer = new HlsPartAnswer(ctx, session.get().object().mimeType(),
            HttpUtil.isKeepAlive(request), done);
        if (!session.get().take(from, length, answer)) {
            sessions.fromDisk();
            return null;
        }
        return answer;
    }

    private boolean sameObject(String path, HlsSession session) {
        try {
            return directory.find(ObjectNames.normalize(path)).map(o -> o.id() == session.objectId()).orElse(false);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private Playlists.Media spec(String name, HlsSession session, Map<String, List<String>> parameters) {
        return new Playlists.Media(name, session.key(), session.media(), session.growing(), roundNs,
            session.growing() ? session.object().createdMs() : -1, "1".equals(first(parameters, Playlists.PARTS)));
    }

    /** A playlist: it changes (and names a session), so nothing may keep it. */
    private static void send(ChannelHandlerContext ctx, FullHttpRequest request, String playlist) {
        byte[] body = playlist.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
            Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, Playlists.CONTENT_TYPE);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        HttpUtil.setContentLength(response, body.length);
        HttpResponses.send(ctx, request, response, false);
    }

    private static String first(Map<String, List<String>> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** A non-negative number, -1 if absent, -2 if not a number. */
    private static long number(String value) {
        if (value == null) {
            return -1;
        }
        try {
            long parsed = Long.parseLong(value);
            return parsed < 0 ? -2 : parsed;
        } catch (NumberFormatException e) {
            return -2;
        }
    }
}
