package io.rondo.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.server.config.BitRates;
import io.rondo.server.content.Library;
import io.rondo.server.content.PlayerFiles;
import io.rondo.server.stream.StreamServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The library's objects on the admin port, {@code /api/v1/objects}: listed a page at a time, read,
 * uploaded, renamed and deleted on a running server, as {@code rondo ls}, {@code ingest},
 * {@code mv} and {@code rm} do on a stopped one.
 *
 * <p>An upload's body is streamed to a temporary file in the first storage root's
 * {@code rondo/uploads/} ({@link UploadFile}) and ingested from there as {@code rondo ingest}
 * ingests a file: remuxed if it is continuous media, written aside and renamed into place before
 * its catalog entry, so a crash leaves the object whole or absent. What a crash can leave in
 * {@code rondo/uploads/} is removed when this resource is built at the next start.
 *
 * <p>Threads: reads are answered on the admin event loop from the catalog's index in memory. An
 * upload's writes and its ingest run on the {@code rondo-upload} thread; renames and deletes, which
 * write the catalog and remove files, on {@code rondo-objects}, so they never wait behind an ingest.
 * Each thread ends when it has been idle for a while.
 */
public final class ObjectsResource {

    /** Where uploads are written until they are ingested, under the first storage root. */
    static final String UPLOADS = "rondo/uploads";

    /** The reply header that carries what ingest noted about an upload, e.g. why media became discrete. */
    static final String NOTE_HEADER = "Rondo-Note";

    private static final Logger LOG = LoggerFactory.getLogger(ObjectsResource.class);

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 500;
    private static final long IDLE_SECONDS = 30;

    /**
     * An object as the API shows it; the media fields are null for a discrete object.
     *
     * @param name            its name, {@code /videos/a.mp4}
     * @param kind            {@code discrete} or {@code continuous}
     * @param mimeType        its Content-Type
     * @param size            its bytes as stored
     * @param etag            its strong validator, quotes included
     * @param modified        when it was stored or last renamed
     * @param disks           the disks its bytes are on
     * @param durationSeconds its presentation time
     * @param bitsPerSecond   its mean bit rate
     * @param fragments       its fragments, one round each
     * @param codecs          its codecs, as MediaSource.isTypeSupported takes them
     * @param streams         the streams reading it now
     */
    public record ObjectView(String name, String kind, String mimeType, long size, String etag, String modified,
                             List<String> disks, Double durationSeconds, Long bitsPerSecond, Integer fragments,
                             String codecs, int streams) {
    }

    /** {@code GET /api/v1/objects}: a page, and the cursor of the next one (null on the last). */
    public record ObjectPage(List<ObjectView> items, String next) {
    }

    private final Library library;
    private final StreamServer streams;
    private final long maxUploadBytes;
    private final Path uploads;
    private final Executor uploadThread = idleEndingThread("rondo-upload");
    private final Executor changeThread = idleEndingThread("rondo-objects");
    private final Set<String> uploading = ConcurrentHashMap.newKeySet();

    /**
     * Builds the resource, removing the uploads a crash left in {@code rondo/uploads/}.
     *
     * @param library        the library the objects are in
     * @param streams        the stream port, to count and end an object's streams
     * @param maxUploadBytes the largest upload taken (the admin handler refuses a larger one first)
     * @throws IOException if {@code rondo/uploads/} cannot be made or emptied
     */
    public ObjectsResource(Library library, StreamServer streams, long maxUploadBytes) throws IOException {
        this.library = library;
        this.streams = streams;
        this.maxUploadBytes = maxUploadBytes;
        this.uploads = library.dataFolder().resolve(UPLOADS);
        int removed = removeLeftovers(uploads);
        if (removed > 0) {
            LOG.info("removed {} upload{} a crash interrupted from {}", removed, removed == 1 ? "" : "s", uploads);
        }
    }

    /** Adds the objects' routes. */
    public AdminRouter routes(AdminRouter router) {
        return router.add(
            Route.sync("GET", "/api/v1/objects", Scope.READ, this::list),
            Route.sync("GET", "/api/v1/objects/{name+}", Scope.READ, this::object),
            Route.upload("PUT", "/api/v1/objects/{name+}", Scope.ADMIN, this::upload),
            Route.of("DELETE", "/api/v1/objects/{name+}", Scope.ADMIN, this::delete),
            Route.of("POST", "/api/v1/objects/{name+}/move", Scope.ADMIN, this::move));
    }

    private ApiReply list(ApiRequest request) {
        int limit = request.intParam("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        String prefix = request.param("prefix");
        if (prefix == null) {
            prefix = "/";
        } else if (!prefix.startsWith("/")) {
            throw Problem.invalid("prefix", "prefix is the start of object names, which begin with '/' (e.g. "
                + "/videos/), was '" + prefix + "'");
        }
        List<MediaObject> page = library.store().catalog().page(prefix, after(request.param("cursor")), limit + 1);
        String next = page.size() > limit ? cursorAfter(page.get(limit - 1).name()) : null;
        return ApiReply.ok(new ObjectPage(page.stream().limit(limit).map(this::view).toList(), next));
    }

    /** The cursor of the page after the object {@code name}: its name, base64url. */
    private static String cursorAfter(String name) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(name.getBytes(StandardCharsets.UTF_8));
    }

    /** The name a cursor says the page starts after, or null for the first page. */
    private static String after(String cursor) {
        if (cursor == null) {
            return null;
        }
        try {
            String name = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (name.startsWith("/")) {
                return name;
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw Problem.invalid("cursor", "cursor is the 'next' of the page before, was '" + cursor + "'");
    }

    /** One object; a name no object can have is not found either, the reason in the detail. */
    private ApiReply object(ApiRequest request) {
        String name;
        try {
            name = ObjectNames.normalize("/" + request.variable("name"));
        } catch (IllegalArgumentException e) {
            throw Problem.notFound("no object can have this name: " + e.getMessage());
        }
        return ApiReply.ok(view(existing(name)));
    }

    private Route.UploadSink upload(ApiRequest request) {
        String name = nameOf(request);
        if (PlayerFiles.reserved(name)) {
            throw reserved("name", name);
        }
        Kind kind = kind(request.param("kind"));
        long bitRate = bitRate(request.param("bitrate"));
        if (library.store().catalog().byName(name).isPresent()) {
            throw taken(name);
        }
        String clash = ObjectNames.clash(library.store().catalog(), name);
        if (clash != null) {
            throw Problem.conflict(clash);
        }
        if (!uploading.add(name)) {
            throw Problem.conflict(name + " is being uploaded by another request");
        }
        return new UploadFile(uploads, uploadThread, maxUploadBytes,
            file -> ingest(name, kind, bitRate, file, request), () -> uploading.remove(name));
    }

    /** Brings a complete upload into the library; on the upload thread. */
    private ApiReply ingest(String name, Kind kind, long bitRate, Path file, ApiRequest request) throws IOException {
        if (library.store().catalog().byName(name).isPresent()) {
            throw taken(name);
        }
        List<String> notes = new ArrayList<>();
        MediaObject object;
        try {
            object = library.ingest().ingest(new IngestRequest(file, name, kind, bitRate), copied -> { }, notes::add);
        } catch (IngestException e) {
            if (library.store().catalog().byName(name).isPresent()) {
                throw taken(name);
            }
            throw Problem.invalid(null, e.getMessage().replace(file.toString(), "the upload"));
        }
        LOG.info("admin {}: uploaded {} ({}, {} bytes)", request.remote(), object.name(),
            object.kind().name().toLowerCase(Locale.ROOT), object.size());
        notes.forEach(note -> LOG.info("admin: {}", note));
        ApiReply reply = ApiReply.json(201, view(object)).header("Location", location(object.name()));
        if (!notes.isEmpty()) {
            reply.header(NOTE_HEADER, String.join(" ", notes).replaceAll("[^\\x20-\\x7e]", "?"));
        }
        return reply;
    }

    /**
     * Deletes an object at once, as on a Unix file system: its name and files go now, and whoever
     * reads it (a stream, a download) goes on with the files it has open, to its end; with
     * {@code force=true} its streams are ended first (ENDED_BY_OPERATOR).
     */
    private CompletableFuture<ApiReply> delete(ApiRequest request) {
        String name = nameOf(request);
        boolean force = request.flag("force");
        if (PlayerFiles.reserved(name)) {
            throw reserved("name", name);
        }
        long id = existing(name).id();
        return CompletableFuture.supplyAsync(() -> {
            int reading = streams.streamsOf(id);
            if (force && reading > 0) {
                LOG.info("admin {}: ending {} stream{} of {} to delete it", request.remote(), reading,
                    reading == 1 ? "" : "s", name);
                streams.endStreamsOf(id, "an operator removed the object");
            }
            try {
                library.directory().delete(name);
            } catch (IllegalArgumentException gone) {
                throw Problem.notFound("no object is named " + name);
            } catch (IOException e) {
                LOG.warn("deleted {} from the catalog but not all its files ({}); the next start removes them", name,
                    e.toString());
            }
            LOG.info("admin {}: deleted {}", request.remote(), name);
            return ApiReply.noContent();
        }, changeThread);
    }

    private CompletableFuture<ApiReply> move(ApiRequest request) {
        String from = nameOf(request);
        String type = request.headers().get("Content-Type");
        if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw Problem.unsupportedMediaType("a move's body is JSON, {\"to\": \"/new/name\"}, as "
                + "application/json; was " + type);
        }
        String to = target(request.body());
        if (PlayerFiles.reserved(from)) {
            throw reserved("name", from);
        }
        if (PlayerFiles.reserved(to)) {
            throw reserved("to", to);
        }
        return CompletableFuture.supplyAsync(() -> {
            existing(from);
            if (library.store().catalog().byName(to).isPresent()) {
                throw taken(to);
            }
            String clash = ObjectNames.clash(library.store().catalog(), to);
            if (clash != null && !to.startsWith(from + "/")) {
                throw Problem.conflict(clash);
            }
            MediaObject renamed;
            try {
                renamed = library.directory().rename(from, to);
            } catch (IllegalArgumentException | IllegalStateException e) {
                existing(from);
                throw taken(to);
            }
            LOG.info("admin {}: renamed {} to {}", request.remote(), from, renamed.name());
            return ApiReply.ok(view(renamed));
        }, changeThread);
    }

    /** The new name in a move's body, {@code {"to": "/new/name"}}. */
    private static String target(byte[] body) {
        JsonNode move;
        try {
            move = ApiReply.JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw Problem.invalid(null, "the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw Problem.invalid(null, "the body is not JSON: " + e.getMessage());
        }
        if (move == null || !move.isObject()) {
            throw Problem.invalid(null, "a move is a JSON object naming the new name, e.g. {\"to\":\"/videos/b.mp4\"}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = move.fields(); fields.hasNext(); ) {
            String field = fields.next().getKey();
            if (!field.equals("to")) {
                throw Problem.invalid(field, "a move has one field, to; not '" + field + "'");
            }
        }
        JsonNode to = move.get("to");
        if (to == null || !to.isTextual()) {
            throw Problem.invalid("to", "to is the object's new name as a string, e.g. \"/videos/b.mp4\"");
        }
        return normalized(to.textValue(), "to");
    }

    private ObjectView view(MediaObject object) {
        MediaIndex media = object.media();
        return new ObjectView(object.name(), object.kind().name().toLowerCase(Locale.ROOT), object.mimeType(),
            object.size(), object.etag(), Instant.ofEpochMilli(object.modifiedMs()).toString(),
            object.placement().files().stream().map(StoredFile::disk).distinct().sorted().toList(),
            media == null ? null : media.durationNs() / 1e9, media == null ? null : media.averageBitRate(),
            media == null ? null : media.fragments().size(), media == null ? null : media.codecs(),
            streams.streamsOf(object.id()));
    }

    private MediaObject existing(String name) {
        return library.store().catalog().byName(name)
            .orElseThrow(() -> Problem.notFound("no object is named " + name));
    }

    /** The object named by the request's path: its {@code name} variable, with the leading '/' put back. */
    private static String nameOf(ApiRequest request) {
        return normalized("/" + request.variable("name"), "name");
    }

    private static String normalized(String name, String field) {
        try {
            return ObjectNames.normalize(name);
        } catch (IllegalArgumentException e) {
            throw Problem.invalid(field, e.getMessage());
        }
    }

    private static Kind kind(String text) {
        if (text == null) {
            return null;
        }
        return switch (text) {
            case "discrete" -> Kind.DISCRETE;
            case "continuous" -> Kind.CONTINUOUS;
            default -> throw Problem.invalid("kind", "kind is discrete or continuous (without it the content "
                + "decides), was '" + text + "'");
        };
    }

    /** A declared bit rate, to stream media Rondo cannot index with a constant-bit-rate estimate; 0 if none. */
    private static long bitRate(String text) {
        if (text == null) {
            return 0;
        }
        long bits;
        try {
            bits = BitRates.parse(text, "bitrate");
        } catch (IllegalArgumentException e) {
            throw Problem.invalid("bitrate", e.getMessage());
        }
        if (bits == AdmissionConfig.UNLIMITED_NETWORK) {
            throw Problem.invalid("bitrate", "bitrate is a rate in bits a second like 2M (k, M, G: powers of 1000), "
                + "was '" + text + "'");
        }
        return bits;
    }

    private static Problem taken(String name) {
        return Problem.conflict("an object named " + name + " already exists; delete it first or choose another "
            + "name");
    }

    private static Problem reserved(String field, String name) {
        return Problem.invalid(field, PlayerFiles.FOLDER + " holds Rondo's bundled player, which only the server "
            + "writes; " + name + " cannot be uploaded, moved or deleted");
    }

    /** The object's path in this API, percent-encoded but for unreserved characters and '/'. */
    static String location(String name) {
        StringBuilder path = new StringBuilder("/api/v1/objects");
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "/-._~".indexOf(c) >= 0) {
                path.append(c);
            } else {
                path.append('%').append(String.format(Locale.ROOT, "%02X", (int) c));
            }
        }
        return path.toString();
    }

    /** Deletes what is in {@code folder}, creating it if missing; returns how many files it removed. */
    private static int removeLeftovers(Path folder) throws IOException {
        Files.createDirectories(folder);
        int removed = 0;
        try (DirectoryStream<Path> left = Files.newDirectoryStream(folder)) {
            for (Path file : left) {
                Files.deleteIfExists(file);
                removed++;
            }
        }
        return removed;
    }

    /** One thread, started when work comes and ended when idle, so the resource needs no closing. */
    static Executor idleEndingThread(String name) {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, name);
                thread.setDaemon(true);
                return thread;
            });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }
}
