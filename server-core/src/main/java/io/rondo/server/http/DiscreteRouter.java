package io.rondo.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.rondo.content.ingest.Directory;
import io.rondo.server.cluster.PeerLibraries;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.MediaObject;
import io.rondo.server.config.DiskSettings;
import io.rondo.server.config.HttpSettings;
import io.rondo.server.content.PlayerFiles;
import io.rondo.server.hls.Playlists;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which answer a request gets. A request the decoder refused gets the status that says why, and
 * the connection closes; only GET and HEAD are served (405 with Allow otherwise); then by path:
 * the player's folder is its page, {@code /player/info/NAME} is an object's {@link MediaInfo},
 * {@code NAME.m3u8} and a session's part GETs are HLS ({@link HlsRoutes}), a
 * path that ends in '/' is a {@link FolderPage} (the home page, {@code /}, with a welcome and
 * without the player's folder), {@code /favicon.ico} is Rondo's icon unless the library has an
 * object of that name, and any other names an object, answered as its
 * {@link ObjectResponse} says. A folder named without its slash is redirected to it; whatever is
 * not there is 404 with the reason.
 *
 * <p>It never reads a disk: an object's body is left to a {@link BodyPump}, or written from
 * {@link HotObjects} when its bytes are there. An answer that reads no disk (a 304, a HEAD, a body
 * from memory) looks the object up and takes no lease; one that reads takes its
 * {@link Directory.Lease} first, and is decided again should the object have changed between. It
 * holds no connection's state, so one router serves every connection.
 */
final class DiscreteRouter {

    private final Directory directory;
    private final ClusterFolders cluster;
    private final ChunkReader reads;
    private final HotObjects hot;
    private final int maxRanges;
    private final HlsRoutes hls;

    /**
     * A cacheable object up to this size is read whole into the cache whatever part of it a
     * request asks for (one default D-request); a larger one only when the whole of it is asked
     * for, so a small range of a large object costs a read of that range, not of the object.
     */
    static final long FILL_ANY_PART_UP_TO = DiskSettings.DEFAULT_MAX_READ;

    /** Where browsers look for a site's icon; Rondo's own is answered unless the library has one. */
    static final String FAVICON = "/favicon.ico";
    /** Rondo's icon (16 and 32 pixels), as shipped. */
    private static final byte[] FAVICON_BYTES = shipped("favicon.ico");

    private static byte[] shipped(String file) {
        try (InputStream in = DiscreteRouter.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException(file + " is missing from Rondo's jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " from Rondo's jar", e);
        }
    }

    DiscreteRouter(Directory directory, ChunkReader reads, HotObjects hot) {
        this(directory, reads, hot, HttpSettings.DEFAULT_MAX_RANGES, null, null);
    }

    /**
     * @param maxRanges the most ranges one request may ask for ({@code http.maxRanges})
     * @param peers     what the other nodes of this server's cluster hold, or null where it is alone
     * @param hls       HLS playlists and sessions, or null where the server has no streams
     */
    DiscreteRouter(Directory directory, ChunkReader reads, HotObjects hot, int maxRanges, PeerLibraries peers,
                   HlsRoutes hls) {
        this.directory = directory;
        this.cluster = new ClusterFolders(directory, peers);
        this.reads = reads;
        this.hot = hot;
        this.maxRanges = maxRanges;
        this.hls = hls;
    }

    /**
     * Answers one request. Returns the pump of a body still to be read, not yet started, which
     * calls {@code done} once the body's last byte is written; null when the answer is all written.
     */
    Pending route(ChannelHandlerContext ctx, FullHttpRequest request, Runnable done) {
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            if (cause instanceof RefusedRequest refused) {
                HttpResponses.plain(ctx, request, refused.status(), refused.getMessage(), true);
                return null;
            }
            HttpResponseStatus status = cause instanceof TooLongHttpLineException
                ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                : cause instanceof TooLongFrameException ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                : HttpResponseStatus.BAD_REQUEST;
            HttpResponses.plain(ctx, request, status, status.reasonPhrase(), true);
            return null;
        }
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            FullHttpResponse response = HttpResponses.text(HttpResponseStatus.METHOD_NOT_ALLOWED,
                "only GET and HEAD are served here");
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            HttpResponses.send(ctx, request, response, false);
            return null;
        }
        QueryStringDecoder decoded;
        String path;
        try {
            decoded = new QueryStringDecoder(request.uri());
            path = decoded.path();
        } catch (IllegalArgumentException e) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.BAD_REQUEST, "the path is not valid URL encoding",
                false);
            return null;
        }
        if (!path.startsWith("/") || hasControlOrBackslash(path)) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.BAD_REQUEST, "the path is not an absolute path",
                false);
            return null;
        }
        if (path.equals(PlayerFiles.FOLDER)) {
            path = PlayerFiles.PAGE;
        } else if (path.startsWith(MediaInfo.PREFIX)) {
            info(ctx, request, path.substring(MediaInfo.PREFIX.length() - 1));
            return null;
        }
        if (path.endsWith("/")) {
            folder(ctx, request, path);
            return null;
        }
        if (path.equals(FAVICON) && directory.find(FAVICON).isEmpty()) {
            page(ctx, request, FAVICON_BYTES, "image/vnd.microsoft.icon");
            return null;
        }
        if (hls != null && hls.isPlaylist(path)) {
            return hls.playlist(ctx, request, path, parameters(decoded), done);
        }
        if (hls != null && !decoded.rawQuery().isEmpty() && parameters(decoded).containsKey(Playlists.SESSION)) {
            Pending part = hls.part(ctx, request, path, parameters(decoded), done);
            if (part != null) {
                return part;
            }
        }
        return object(ctx, request, path, done);
    }

    /** The query's parameters, decoded only for a request HLS may answer: a plain GET builds no map. */
    private static Map<String, List<String>> parameters(QueryStringDecoder decoded) {
        try {
            return decoded.parameters();
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }

    private static boolean hasControlOrBackslash(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return true;
            }
        }
        return false;
    }

    private Pending object(ChannelHandlerContext ctx, FullHttpRequest request, String path, Runnable done) {
        String name;
        try {
            name = ObjectNames.normalize(path);
        } catch (IllegalArgumentException e) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no such object", false);
            return null;
        }
        Optional<MediaObject> found = directory.find(name);
        if (found.isEmpty()) {
            absent(ctx, request, name);
            return null;
        }
        MediaObject object = found.get();
        ObjectResponse answer = ObjectResponse.decide(request, object, maxRanges);
        if (answer.head() instanceof FullHttpResponse whole) {
            HttpResponses.send(ctx, request, whole, false);
            return null;
        }
        if (answer.body().isEmpty()) {
            ctx.write(answer.head());
            HttpResponses.end(ctx, answer.keepAlive());
            return null;
        }
        boolean cacheable = hot.cacheable(object);
        ByteBuf cached = cacheable ? hot.lookUp(object) : null;
        if (cached != null) {
            hot.servedFromMemory(answer.body().objectBytes());
            answer.writeFrom(cached, ctx);
            return null;
        }
        Optional<Directory.Lease> leased = directory.open(name);
        if (leased.isEmpty() || !leased.get().object().equals(object)) {
            leased.ifPresent(Directory.Lease::close);
            return object(ctx, request, path, done);
        }
        if (cacheable && (object.size() <= FILL_ANY_PART_UP_TO || answer.body().objectBytes() >= object.size())
            && hot.claimFill(object)) {
            return new FillPump(ctx, leased.get(), answer, reads, done, hot);
        }
        return new TransferPump(ctx, leased.get(), answer, reads, done);
    }

    /** No object has the name: a folder of that name is redirected to, anything else is 404. */
    private void absent(ChannelHandlerContext ctx, FullHttpRequest request, String name) {
        Optional<List<String>> elsewhere = cluster.heldElsewhere(name);
        if (elsewhere.isPresent()) {
            FullHttpResponse busy = HttpResponses.text(HttpResponseStatus.SERVICE_UNAVAILABLE, name
                + " is held by " + String.join(", ", elsewhere.get()) + ", not (yet) by this node; ask again");
            busy.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
            HttpResponses.send(ctx, request, busy, false);
        } else if (!cluster.rows(name + "/").isEmpty()) {
            FullHttpResponse moved = HttpResponses.text(HttpResponseStatus.MOVED_PERMANENTLY,
                "a folder: " + name + "/");
            moved.headers().set(HttpHeaderNames.LOCATION, name + "/");
            HttpResponses.send(ctx, request, moved, false);
        } else {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no object is named " + name, false);
        }
    }

    private void folder(ChannelHandlerContext ctx, FullHttpRequest request, String path) {
        String folder;
        try {
            folder = ObjectNames.folder(path);
        } catch (IllegalArgumentException e) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no such folder", false);
            return;
        }
        boolean home = folder.equals("/");
        List<FolderPage.Row> entries = cluster.rows(folder);
        if (entries.isEmpty() && !home) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no folder " + folder, false);
            return;
        }
        if (home) {
            entries = entries.stream().filter(entry -> !entry.name().equals(PlayerFiles.FOLDER)).toList();
        }
        page(ctx, request, FolderPage.render(folder, entries, home).getBytes(StandardCharsets.UTF_8),
            "text/html; charset=utf-8");
    }

    /** An object's {@link MediaInfo}, for the player: from the catalog, no disk read. */
    private void info(ChannelHandlerContext ctx, FullHttpRequest request, String name) {
        Optional<Directory.Lease> lease;
        try {
            lease = directory.open(ObjectNames.normalize(name));
        } catch (IllegalArgumentException e) {
            lease = Optional.empty();
        }
        if (lease.isEmpty()) {
            HttpResponses.plain(ctx, request, HttpResponseStatus.NOT_FOUND, "no object is named " + name, false);
            return;
        }
        try (Directory.Lease held = lease.get()) {
            page(ctx, request, MediaInfo.render(held.object(), directory.beingWritten(held.object().id())),
                "application/json");
        }
    }

    /**
     * A page made here from the catalog, a folder's or an object's info. It changes as the library
     * does, so a cache must ask before each use ({@code no-cache}); its ETag is a digest of its
     * bytes, so asking again costs a 304 while the library is unchanged. A HEAD gets its length and
     * no body.
     */
    private static void page(ChannelHandlerContext ctx, FullHttpRequest request, byte[] content, String type) {
        String etag = ConditionalRequests.digestTag(content);
        boolean unchanged = ConditionalRequests.noneMatchHolds(request.headers().get(HttpHeaderNames.IF_NONE_MATCH),
            etag);
        FullHttpResponse response = unchanged
            ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_MODIFIED)
            : new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(content));
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, ObjectResponse.CACHE_CONTROL);
        response.headers().set(HttpHeaderNames.ETAG, etag);
        if (!unchanged) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
            HttpUtil.setContentLength(response, content.length);
        }
        HttpResponses.send(ctx, request, response, false);
    }

}
