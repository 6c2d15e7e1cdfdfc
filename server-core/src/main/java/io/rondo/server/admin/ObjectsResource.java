package io.rondo.server.admin;

import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.server.cluster.ClusterRuntime;
import io.rondo.server.cluster.NodeCopies;
import io.rondo.server.cluster.PeerLibraries;
import io.rondo.server.cluster.Replication;
import io.rondo.server.content.Library;
import io.rondo.server.stream.StreamServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import static io.rondo.server.admin.ObjectRequests.nameOf;
import static io.rondo.server.admin.ObjectRequests.notReserved;
import static io.rondo.server.admin.ObjectRequests.taken;

/**
 * The library's objects on the admin port, {@code /api/v1/objects}: listed a page at a time, read,
 * uploaded, renamed and deleted on a running server, as {@code rondo ls}, {@code ingest},
 * {@code mv} and {@code rm} do on a stopped one.
 *
 * <p>An upload's body is streamed to a temporary file in the {@link UploadFolder} ({@link UploadFile})
 * and ingested from there as {@code rondo ingest} ingests a file: remuxed if it is continuous media,
 * written aside and renamed into place before its catalog entry, so a crash leaves the object whole
 * or absent.
 *
 * <p>Threads: reads are answered on the admin event loop from the catalog's index in memory. An
 * upload's writes and its ingest run on the {@code rondo-upload} {@link AdminWorker}, for at most
 * {@link UploadSlots#MAX_UPLOADS} uploads at once; renames and deletes, which write the catalog and
 * remove files, on {@code rondo-objects}, so they never wait behind an ingest, with at most
 * {@link #CHANGES_WAITING} waiting. Past either limit a request is refused with 503.
 */
public final class ObjectsResource {

    /** The reply header that names the nodes of a cluster that hold an uploaded object. */
    static final String NODES_HEADER = "Rondo-Nodes";

    /** The reply header that carries what ingest noted about an upload, e.g. why media became discrete. */
    static final String NOTE_HEADER = "Rondo-Note";

    /** The most renames and deletes that wait for the {@code rondo-objects} thread; one more is a 503. */
    static final int CHANGES_WAITING = 64;

    private static final Logger LOG = LoggerFactory.getLogger(ObjectsResource.class);

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 500;

    private final Library library;
    private final StreamServer streams;
    private final Replication replication;
    private final PeerLibraries peers;
    private final long maxUploadBytes;
    private final Path uploads;
    private final AdminWorker uploadThread = new AdminWorker("rondo-upload", UploadSlots.QUEUE);
    private final AdminWorker changeThread = new AdminWorker("rondo-objects", CHANGES_WAITING);
    private final UploadSlots uploading = new UploadSlots();

    /**
     * Builds the resource, removing the uploads a crash left in {@code rondo/uploads/}.
     *
     * @param library        the library the objects are in
     * @param streams        the stream port, to count and end an object's streams
     * @param maxUploadBytes the largest upload taken (the admin handler refuses a larger one first)
     * @throws IOException if {@code rondo/uploads/} cannot be made or emptied
     */
    public ObjectsResource(Library library, StreamServer streams, long maxUploadBytes) throws IOException {
        this(library, streams, maxUploadBytes, null);
    }

    /**
     * Builds the resource of a node of a cluster: uploads go on to their owners, deletes to every
     * node, and listings show the whole cluster's objects unless {@code scope=node} asks for this
     * node's alone (docs/cluster.md).
     *
     * @param cluster the node's part in its cluster, or null where it is alone
     * @throws IOException if {@code rondo/uploads/} cannot be made or emptied
     */
    public ObjectsResource(Library library, StreamServer streams, long maxUploadBytes, ClusterRuntime cluster)
        throws IOException {
        this.library = library;
        this.streams = streams;
        this.replication = cluster == null ? Replication.none() : cluster.replication();
        this.peers = cluster == null ? null : cluster.peers();
        this.maxUploadBytes = maxUploadBytes;
        this.uploads = UploadFolder.open(library.dataFolder());
    }

    /** Adds the objects' routes. */
    public AdminRouter routes(AdminRouter router) {
        return router.add(
            Route.sync("GET", "/api/v1/objects", Scope.READ, this::list),
            Route.sync("GET", "/api/v1/objects/{name+}", Scope.READ, this::object),
            Route.upload("PUT", "/api/v1/objects/{name+}", Scope.ADMIN, (request, loop) -> upload(request)),
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
        String cursor = ObjectCursor.name(request.param("cursor"));
        List<MediaObject> page = library.store().catalog().page(prefix, cursor, limit + 1);
        if (!"node".equals(scope(request)) && peers != null) {
            return ApiReply.ok(ClusterListing.page(page, peers.withPrefix(prefix), cursor, limit, this::view));
        }
        String next = page.size() > limit ? ObjectCursor.after(page.get(limit - 1).name()) : null;
        return ApiReply.ok(new ObjectView.Page(page.stream().limit(limit).map(this::view).toList(), next));
    }

    /** {@code scope}: {@code cluster} (the default) or {@code node}. */
    private static String scope(ApiRequest request) {
        String scope = request.param("scope");
        if (scope != null && !scope.equals("node") && !scope.equals("cluster")) {
            throw Problem.invalid("scope", "scope is cluster (every node's objects, the default) or node (this "
                + "node's alone), was '" + scope + "'");
        }
        return scope == null ? "cluster" : scope;
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
        notReserved("name", name);
        Kind kind = ObjectRequests.kind(request.param("kind"));
        long bitRate = ObjectRequests.bitRate(request.param("bitrate"));
        if (library.store().catalog().byName(name).isPresent()) {
            throw taken(name);
        }
        String clash = ObjectNames.clash(library.store().catalog(), name);
        if (clash != null) {
            throw Problem.conflict(clash);
        }
        boolean copy = request.flag(NodeCopies.REPLICA_PARAM);
        uploading.take(name);
        return new UploadFile(uploads, uploadThread, maxUploadBytes,
            file -> ingest(name, kind, bitRate, file, request, copy),
            () -> uploading.release(name));
    }

    /**
     * Brings a complete upload into the library; on the upload thread. Where this node is one of a
     * cluster and the upload is not itself a node's copy ({@code copy} false), the object goes on
     * to its other owners, and a node that is not an owner lets its own copy go once an owner has
     * it; the answer's {@code Rondo-Nodes} header names the nodes that hold it.
     */
    private ApiReply ingest(String name, Kind kind, long bitRate, Path file, ApiRequest request, boolean copy)
        throws IOException {
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
        LOG.info("admin {}: uploaded {} ({}, {} bytes){}", request.remote(), object.name(),
            object.kind().name().toLowerCase(Locale.ROOT), object.size(), copy ? ", a node's copy" : "");
        notes.forEach(note -> LOG.info("admin: {}", note));
        ApiReply reply = ApiReply.json(201, view(object)).header("Location", location(object.name()));
        if (!copy && replication.enabled()) {
            Replication.Outcome outcome = replication.replicate(object.name(),
                object.kind().name().toLowerCase(Locale.ROOT), bitRate, file);
            reply.header(NODES_HEADER, String.join(", ", outcome.holders()));
            if (!outcome.missing().isEmpty()) {
                notes.add("Not yet on " + String.join(", ", outcome.missing()) + ", which did not answer: "
                    + "rondo cluster rebalance copies it there.");
            }
            if (!outcome.keptHere()) {
                library.directory().delete(object.name());
            }
        }
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
        notReserved("name", name);
        boolean everywhere = replication.enabled() && !request.flag(NodeCopies.REPLICA_PARAM);
        if (everywhere && library.store().catalog().byName(name).isEmpty()) {
            if (peers.withPrefix(name).stream().noneMatch(held -> held.object().name().equals(name))) {
                throw Problem.notFound("no node of the cluster has an object named " + name);
            }
            return changeThread.submit(() -> removedElsewhere(name, ApiReply.noContent()));
        }
        long id = existing(name).id();
        return changeThread.submit(() -> everywhere ? removedElsewhere(name, deleteHere(request, name, id, force))
            : deleteHere(request, name, id, force));
    }

    /** Removes the other nodes' copies of {@code name}; the reply notes those that did not answer. */
    private ApiReply removedElsewhere(String name, ApiReply reply) {
        List<String> unreached = replication.removeElsewhere(name);
        return unreached.isEmpty() ? reply : reply.header(NOTE_HEADER, "Copies remain on "
            + String.join(", ", unreached) + ", which did not answer.");
    }

    private ApiReply deleteHere(ApiRequest request, String name, long id, boolean force) {
        int reading = streams.streamsOf(id);
        if (force && reading > 0) {
            LOG.info("admin {}: ending {} stream{} of {} to delete it", request.remote(), reading,
                reading == 1 ? "" : "s", name);
            streams.endStreamsOf(id, "an operator removed the object");
        }
        try {
            library.directory().delete(name);
        } catch (Directory.BeingWritten recording) {
            throw Problem.conflict(recording.getMessage());
        } catch (IllegalArgumentException gone) {
            throw Problem.notFound("no object is named " + name);
        } catch (IOException e) {
            LOG.warn("deleted {} from the catalog but not all its files ({}); the next start removes them", name,
                e.toString());
        }
        LOG.info("admin {}: deleted {}", request.remote(), name);
        return ApiReply.noContent();
    }

    private CompletableFuture<ApiReply> move(ApiRequest request) {
        String from = nameOf(request);
        String to = ObjectRequests.moveTarget(request);
        notReserved("name", from);
        notReserved("to", to);
        return changeThread.submit(() -> {
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
            } catch (Directory.BeingWritten recording) {
                throw Problem.conflict(recording.getMessage());
            } catch (IllegalArgumentException | IllegalStateException e) {
                existing(from);
                throw taken(to);
            }
            LOG.info("admin {}: renamed {} to {}", request.remote(), from, renamed.name());
            return ApiReply.ok(view(renamed));
        });
    }

    private ObjectView view(MediaObject object) {
        return ObjectView.of(object, streams.streamsOf(object.id()));
    }

    private MediaObject existing(String name) {
        return library.store().catalog().byName(name)
            .orElseThrow(() -> Problem.notFound("no object is named " + name));
    }

    /** The object's path in this API, percent-encoded but for unreserved characters and '/'. */
    static String location(String name) {
        return "/api/v1/objects" + PercentEncoding.path(name);
    }
}
