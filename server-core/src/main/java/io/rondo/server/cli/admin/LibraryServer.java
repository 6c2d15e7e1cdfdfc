package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.server.admin.AdminTokens;
import io.rondo.server.admin.AdminUrlFile;
import io.rondo.server.config.RondoConfig;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The library through the running server that holds it: what {@code rondo ingest}, {@code ls},
 * {@code mv} and {@code rm} do when {@code rondo serve} has the catalog open, done by its admin API
 * ({@code /api/v1/objects}) with the admin token of the data folder. The server's address is the
 * one it wrote to {@code DATA/rondo/admin.url} ({@link AdminUrlFile}).
 */
public final class LibraryServer {

    private static final int PAGE = 500;

    /** The server answered with an error about one request (a taken name, a file it refused). */
    public static final class Refused extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /**
     * An object the server stored.
     *
     * @param object the object as the API shows it
     * @param note   what ingest noted about the file, or null
     */
    public record Uploaded(JsonNode object, String note) {
    }

    private final AdminClient client;

    private LibraryServer(AdminClient client) {
        this.client = client;
    }

    /**
     * The server that says, in the data folder, that it holds the library; empty if none does.
     *
     * @param dataFolder the library's data folder (its first storage root)
     * @param config     the configuration: the admin token's file and the admin port's TLS certificate
     * @throws IllegalStateException if a server is named but its token cannot be read
     */
    public static Optional<LibraryServer> of(Path dataFolder, RondoConfig config) {
        Optional<URI> url;
        try {
            url = AdminUrlFile.read(dataFolder);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + dataFolder.resolve(AdminUrlFile.NAME) + ": "
                + e.getMessage(), e);
        }
        if (url.isEmpty()) {
            return Optional.empty();
        }
        Path tokenFile = AdminTokens.adminFile(config.adminSettings(), dataFolder);
        try {
            URI base = AdminCommand.parseUrl(url.get().toString());
            SSLContext tls = base.getScheme().equals("https") && config.adminSettings().tlsCert() != null
                ? AdminCommand.trusting(config.adminSettings().tlsCert()) : null;
            return Optional.of(new LibraryServer(new AdminClient(base, AdminCommand.read(tokenFile),
                tokenFile.toString(), tls)));
        } catch (AdminException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The admin port's URL. */
    public URI url() {
        return client.base();
    }

    /**
     * True if the server answers on its admin port: a server killed without stopping leaves its
     * address behind, and another process may hold the catalog since.
     */
    public boolean answers() {
        try {
            client.get("/healthz");
            return true;
        } catch (AdminException e) {
            return e.status() != 0;
        }
    }

    /** Every object whose name starts with {@code prefix}, in name order, every page joined. */
    public List<JsonNode> objects(String prefix) {
        List<JsonNode> objects = new ArrayList<>();
        String cursor = null;
        do {
            String path = "/api/v1/objects?limit=" + PAGE + "&prefix=" + AdminClient.encode(prefix)
                + (cursor == null ? "" : "&cursor=" + AdminClient.encode(cursor));
            JsonNode page = call(() -> client.get(path)).body();
            page.path("items").forEach(objects::add);
            cursor = page.path("next").isTextual() ? page.path("next").asText() : null;
        } while (cursor != null);
        return objects;
    }

    /** Renames {@code from} to {@code to}; returns the object as renamed. */
    public JsonNode move(String from, String to) {
        JsonNode body = AdminClient.JSON.createObjectNode().put("to", to);
        return call(() -> client.post("/api/v1/objects/" + UploadCommand.encodedName(from) + "/move", body)).body();
    }

    /** Deletes the object {@code name}; refused while streams read it. */
    public void delete(String name) {
        call(() -> client.delete("/api/v1/objects/" + UploadCommand.encodedName(name)));
    }

    /**
     * Uploads {@code file} as the object {@code name}, which the server ingests as {@code rondo
     * ingest} would.
     *
     * @param kind    discrete, continuous, or null for the server to decide
     * @param bitRate the declared bit rate as given (e.g. 2M), or null
     * @param sent    told the bytes of each piece of the body as it is sent
     */
    public Uploaded upload(Path file, String name, String kind, String bitRate, LongConsumer sent) {
        StringBuilder query = new StringBuilder();
        if (kind != null) {
            query.append("?kind=").append(AdminClient.encode(kind));
        }
        if (bitRate != null) {
            query.append(query.length() == 0 ? '?' : '&').append("bitrate=").append(AdminClient.encode(bitRate));
        }
        HttpRequest.BodyPublisher body;
        try {
            body = HttpRequest.BodyPublishers.ofFile(file);
        } catch (IOException e) {
            throw new Refused("cannot read " + file + ": " + e.getMessage());
        }
        AdminClient.Reply reply = call(() -> client.put("/api/v1/objects/" + UploadCommand.encodedName(name) + query,
            new CountedBody(body, sent)));
        return new Uploaded(reply.body(), reply.headers().firstValue("Rondo-Note").orElse(null));
    }

    /**
     * A request: an error the server answered is {@link Refused}, a name no object can have an
     * IllegalArgumentException, no answer an IllegalStateException.
     */
    private static AdminClient.Reply call(Supplier<AdminClient.Reply> request) {
        try {
            return request.get();
        } catch (AdminException e) {
            if (e.status() != 0) {
                throw new Refused(e.getMessage());
            }
            if (e.exitCode() == AdminCommand.EXIT_USAGE) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
