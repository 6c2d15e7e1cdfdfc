package io.rondo.server.admin;

import io.rondo.server.http.ConditionalRequests;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files the admin port serves from the class path: the dashboard under {@code /admin/} and the
 * API's description at {@code /api/v1/openapi.yaml}, each with an ETag of its bytes.
 */
final class DashboardResource {

    /** Where the dashboard's files and the API's description are on the class path. */
    static final String RESOURCES = "io/rondo/server/admin/";

    private static final Map<String, String> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put(".html", "text/html; charset=utf-8");
        TYPES.put(".js", "text/javascript; charset=utf-8");
        TYPES.put(".mjs", "text/javascript; charset=utf-8");
        TYPES.put(".css", "text/css; charset=utf-8");
        TYPES.put(".svg", "image/svg+xml");
        TYPES.put(".json", "application/json");
        TYPES.put(".yaml", "application/yaml");
        TYPES.put(".txt", "text/plain; charset=utf-8");
    }

    private DashboardResource() {
    }

    /**
     * Adds {@code /admin}, {@code /admin/{file+}} and {@code /api/v1/openapi.yaml}; the files are
     * read on {@code files}, never on the admin event loop.
     */
    static void routes(AdminRouter router, AdminWorker files) {
        router.add(
            Route.sync("GET", "/admin", Scope.PUBLIC, request -> ApiReply.bytes(301, null, new byte[0])
                .header("Location", "/admin/")),
            Route.of("GET", "/admin/{file+}", Scope.PUBLIC, request -> files.call(() -> file("dashboard/"
                + request.variable("file"), request.headers().get("If-None-Match")))),
            Route.of("GET", "/api/v1/openapi.yaml", Scope.PUBLIC, request -> files.call(() -> file("openapi.yaml",
                request.headers().get("If-None-Match")))));
    }

    /**
     * A file of the dashboard or the API's description, from the class path, with an ETag of its
     * bytes: {@code no-cache}, so a browser asks again before each use and never runs the dashboard
     * of a Rondo it was upgraded from, and 304 while {@code ifNoneMatch} names the ETag.
     */
    static ApiReply file(String path, String ifNoneMatch) throws IOException {
        if (path.endsWith("/") || path.equals("dashboard/")) {
            path = path + "index.html";
        }
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.contains("\\")) {
                throw Problem.notFound("no file at " + path);
            }
        }
        try (InputStream in = DashboardResource.class.getClassLoader().getResourceAsStream(RESOURCES + path)) {
            if (in == null) {
                throw Problem.notFound("no file at " + path);
            }
            byte[] bytes = in.readAllBytes();
            String etag = ConditionalRequests.digestTag(bytes);
            if (ConditionalRequests.noneMatchHolds(ifNoneMatch, etag)) {
                return ApiReply.notModified(etag);
            }
            return ApiReply.bytes(200, contentType(path), bytes).header("Cache-Control", "no-cache")
                .header("ETag", etag);
        }
    }

    private static String contentType(String path) {
        for (Map.Entry<String, String> type : TYPES.entrySet()) {
            if (path.endsWith(type.getKey())) {
                return type.getValue();
            }
        }
        return "application/octet-stream";
    }
}
