package io.rondo.server.admin;

import io.rondo.client.protocol.Publish;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.server.live.LiveRecording;
import io.rondo.server.live.LiveRecordings;
import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Executor;

/**
 * The recordings being written, {@code /api/v1/live}: listed with what they wrote and what is
 * durable, stopped by an operator, and published over HTTP, a live stream's media as the chunked
 * body of a {@code PUT} ({@link LiveUpload}), judged and recorded as a stream-protocol PUBLISH is.
 */
public final class LiveResource {

    /** The peak rate of a PUT that declares none, bits a second: {@code rondo record}'s default. */
    static final long DEFAULT_PEAK_BITS_PER_SECOND = 8_000_000;

    private static final Logger LOG = LoggerFactory.getLogger(LiveResource.class);

    private final LiveRecordings recordings;
    private final StreamServer streams;
    private final Directory directory;
    private final DiskRuntime disks;

    /**
     * @param recordings the recordings being written
     * @param streams    the stream port, which judges and admits publishers
     * @param directory  the library's objects, which recordings join
     * @param disks      the disks the recordings are written to
     */
    public LiveResource(LiveRecordings recordings, StreamServer streams, Directory directory, DiskRuntime disks) {
        this.recordings = recordings;
        this.streams = streams;
        this.directory = directory;
        this.disks = disks;
    }

    /** Adds the recordings' routes. */
    public AdminRouter routes(AdminRouter router) {
        return router.add(
            Route.sync("GET", "/api/v1/live", Scope.READ, request -> ApiReply.ok(new LiveView.Page(
                recordings.all().stream().sorted(Comparator.comparing(LiveRecording::name)).map(LiveView::of)
                    .toList(), LiveView.Totals.of(recordings.totals())))),
            Route.live("PUT", "/api/v1/live/{name+}", Scope.PUBLISH, this::publish),
            Route.sync("DELETE", "/api/v1/live/{name+}", Scope.ADMIN, this::stop));
    }

    private ApiReply stop(ApiRequest request) {
        String name = "/" + request.variable("name");
        LiveRecording recording;
        try {
            recording = recordings.byName(ObjectNames.normalize(name)).orElse(null);
        } catch (IllegalArgumentException e) {
            recording = null;
        }
        if (recording == null) {
            throw Problem.notFound("nothing is being recorded as " + name);
        }
        LOG.info("admin {}: stopping the recording of {}", request.remote(), recording.name());
        recordings.finish(recording);
        return ApiReply.noContent();
    }

    private Route.UploadSink publish(ApiRequest request, Executor loop) {
        String name = ObjectRequests.nameOf(request);
        ObjectRequests.notReserved("name", name);
        String peakText = request.param("peakRate");
        long peak = peakText == null ? DEFAULT_PEAK_BITS_PER_SECOND : ObjectRequests.bitRate(peakText, "peakRate");
        String container = container(request.headers().get("Content-Type"), name);
        String client = request.remote().getAddress().getHostAddress() + ":" + request.remote().getPort();
        LiveUpload upload = new LiveUpload(name);
        upload.start(events -> streams.publication(directory, disks, client, loop, events),
            new Publish(name, container, peak, bearer(request.headers().get("Authorization"))));
        return upload;
    }

    /**
     * The container a PUT's body is in: its Content-Type's ({@code video/mp4}, {@code video/webm},
     * {@code video/x-matroska}), else, for none or {@code application/octet-stream}, its name's extension.
     */
    static String container(String contentType, String name) {
        String type = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        String lower = name.toLowerCase(Locale.ROOT);
        if (type.isEmpty() || type.equals("application/octet-stream")) {
            if (lower.endsWith(".mp4") || lower.endsWith(".m4v") || lower.endsWith(".m4a")) {
                return Publish.MP4;
            }
            if (lower.endsWith(".webm") || lower.endsWith(".mkv")) {
                return Publish.WEBM;
            }
        }
        return switch (type) {
            case "video/mp4", "audio/mp4" -> Publish.MP4;
            case "video/webm", "audio/webm", "video/x-matroska", "audio/x-matroska" -> Publish.WEBM;
            default -> throw Problem.unsupportedMediaType("Rondo records live fragmented MP4 (video/mp4) and WebM or "
                + "Matroska (video/webm, video/x-matroska); " + (type.isEmpty() || type.equals("application/octet-"
                + "stream") ? "name the recording .mp4 or .webm or send a Content-Type" : "not " + type));
        };
    }

    /** The token of an {@code Authorization: Bearer TOKEN} header the admin port already judged. */
    private static String bearer(String authorization) {
        return authorization == null || authorization.length() < 7 ? "" : authorization.substring(7).trim();
    }
}
