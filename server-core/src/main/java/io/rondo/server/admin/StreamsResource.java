package io.rondo.server.admin;

import io.rondo.server.runtime.DiskRuntime;
import io.rondo.server.stream.StreamServer;
import io.rondo.server.stream.StreamStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The running streams, {@code /api/v1/streams}: listed a page at a time (by disk or object if
 * asked), read one by one, and ended by an operator. Each stream's status is taken on its own
 * event loop ({@link StreamServer#streams()}), so the lists complete later, never on a wait.
 */
final class StreamsResource {

    /** {@code GET /api/v1/streams}. */
    record StreamPage(List<StreamStatus> items, String next) {
    }

    private final DiskRuntime disks;
    private final StreamServer streams;

    StreamsResource(DiskRuntime disks, StreamServer streams) {
        this.disks = disks;
        this.streams = streams;
    }

    /** Adds the streams' routes. */
    void routes(AdminRouter router) {
        router.add(
            Route.of("GET", "/api/v1/streams", Scope.READ, this::page),
            Route.of("GET", "/api/v1/streams/{id}", Scope.READ, this::stream),
            Route.sync("DELETE", "/api/v1/streams/{id}", Scope.ADMIN, this::end));
    }

    private CompletableFuture<ApiReply> page(ApiRequest request) {
        int limit = request.intParam("limit", 50, 1, 500);
        String cursor = request.param("cursor");
        long after;
        try {
            after = cursor == null ? 0 : Long.parseLong(cursor);
        } catch (NumberFormatException e) {
            throw Problem.invalid("cursor", "cursor is the 'next' value of the last page, was '" + cursor + "'");
        }
        String disk = request.param("disk");
        if (disk != null) {
            DisksResource.known(disks, disk);
        }
        String object = request.param("object");
        return streams.streams().thenApply(all -> {
            List<StreamStatus> page = new ArrayList<>();
            String next = null;
            for (StreamStatus stream : all) {
                if (stream.id() <= after || disk != null && !stream.disks().contains(disk)
                    || object != null && !stream.object().equals(object)) {
                    continue;
                }
                if (page.size() == limit) {
                    next = Long.toString(page.get(page.size() - 1).id());
                    break;
                }
                page.add(stream);
            }
            return ApiReply.ok(new StreamPage(page, next));
        });
    }

    private CompletableFuture<ApiReply> stream(ApiRequest request) {
        long id = streamId(request);
        return streams.streams().thenApply(all -> all.stream().filter(stream -> stream.id() == id).findFirst()
            .map(ApiReply::ok).orElseThrow(() -> Problem.notFound("no stream " + id + " is running")));
    }

    private ApiReply end(ApiRequest request) {
        long id = streamId(request);
        if (!streams.end(id, "an operator ended the stream")) {
            throw Problem.notFound("no stream " + id + " is running");
        }
        return ApiReply.noContent();
    }

    private static long streamId(ApiRequest request) {
        String text = request.variable("id");
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw Problem.notFound("no stream is numbered '" + text + "': stream ids are whole numbers");
        }
    }
}
