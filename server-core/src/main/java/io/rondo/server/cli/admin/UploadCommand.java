package io.rondo.server.cli.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.server.cli.console.Progress;
import io.rondo.server.config.ByteSizes;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rondo admin upload}: a file to a running server as a new object,
 * {@code PUT /api/v1/objects/NAME}. The file is streamed from disk, never read whole, and the
 * server ingests it as {@code rondo ingest} does.
 */
@Command(name = "upload",
    description = {
        "Upload a file as a new object.",
        "The running server stores FILE as the object NAME, ingested as 'rondo ingest' does (a continuous object "
            + "is cut into fragments of one round). A taken NAME, or a file larger than the server's "
            + "admin.maxUpload, is refused as soon as the server reads the request.",
        "Standard error shows a progress bar for a file of 16 MiB or more."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class UploadCommand extends AdminSubcommand {

    /** The header of what ingest found worth saying about the file. */
    private static final String NOTE_HEADER = "Rondo-Note";

    /** The smallest file whose upload shows a progress bar. */
    private static final long BAR_FROM_BYTES = 16L << 20;

    @Parameters(index = "0", paramLabel = "FILE", description = "The file to upload.")
    private Path file;

    @Parameters(index = "1", paramLabel = "NAME", description = "The object's name in the library, e.g. "
        + "/videos/clip.webm.")
    private String name;

    @Option(names = "--kind", paramLabel = "KIND",
        description = "discrete or continuous, as 'rondo ingest --kind'; default: the server decides from the name "
            + "and the bytes.")
    private String kind;

    @Option(names = "--bitrate", paramLabel = "BITS",
        description = "Stream a file Rondo cannot parse (e.g. MPEG-TS) at this declared bit rate in bits a second, "
            + "e.g. 2M (k, M, G: powers of 1000), as 'rondo ingest --bitrate'.")
    private String bitRate;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    private boolean quiet;

    @Override
    public Integer call() {
        return run(out -> {
            String path = "/api/v1/objects/" + encodedName(name) + query();
            long size;
            HttpRequest.BodyPublisher body;
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw AdminException.usage(file + " is not a file that can be read");
            }
            try {
                size = Files.size(file);
                body = HttpRequest.BodyPublishers.ofFile(file);
            } catch (IOException e) {
                throw AdminException.usage("cannot read " + file + ": " + e.getMessage());
            }
            AdminClient client = admin.client();
            AdminClient.Reply reply;
            if (quiet || size < BAR_FROM_BYTES) {
                reply = client.put(path, body);
            } else {
                try (ProgressBar bar = bar(size)) {
                    reply = client.put(path, new CountedBody(body, bar::stepBy));
                }
            }
            reply.headers().firstValue(NOTE_HEADER)
                .ifPresent(note -> spec().commandLine().getErr().println("note: " + note));
            if (admin.json()) {
                AdminCommand.printJson(out, reply.body());
            } else {
                out.println("uploaded " + file + " as " + reply.body().path("name").asText(name) + " ("
                    + describe(reply.body()) + ")" + reply.headers().firstValue("Rondo-Nodes")
                        .map(nodes -> ", on nodes " + nodes).orElse(""));
            }
        });
    }

    /** NAME as the path's segments, each percent-encoded; a leading '/' is the library's root. */
    static String encodedName(String name) {
        List<String> segments = new ArrayList<>();
        for (String segment : name.replaceFirst("^/+", "").split("/", -1)) {
            segments.add(AdminClient.encode(segment));
        }
        if (segments.stream().allMatch(String::isEmpty)) {
            throw AdminException.usage("NAME must name an object, such as /videos/clip.webm; was '" + name + "'");
        }
        return String.join("/", segments);
    }

    /** {@code ?kind=KIND&bitrate=BITS}, as given; the server judges them. */
    private String query() {
        StringBuilder query = new StringBuilder();
        if (kind != null) {
            query.append("?kind=").append(AdminClient.encode(kind));
        }
        if (bitRate != null) {
            query.append(query.length() == 0 ? '?' : '&').append("bitrate=").append(AdminClient.encode(bitRate));
        }
        return query.toString();
    }

    /** What was stored: its kind, its fragments if continuous, and its size. */
    private static String describe(JsonNode object) {
        String kind = object.path("kind").asText("object");
        JsonNode fragments = object.path("fragments");
        String size = ByteSizes.format(object.path("size").asLong());
        return fragments.isNumber() ? kind + ", " + fragments.asLong() + " fragment"
            + (fragments.asLong() == 1 ? "" : "s") + ", " + size : kind + ", " + size;
    }

    private static ProgressBar bar(long size) {
        return Progress.bar("uploading", size, "MiB", 1L << 20, true);
    }
}
