package io.rondo.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.server.config.ByteSizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code rondo ls}: what the library holds, in aligned columns. Beside a running server that holds
 * the library, the server's admin API lists it.
 */
@Command(name = "ls",
    description = {
        "List the library: the folders and objects in FOLDER (default /).",
        "With --json, every object under FOLDER, at any depth, as one JSON array.",
        "While rondo serve holds the library, it is listed through its admin API (with --json, the fields that "
            + "API shows)."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class LsCommand implements Callable<Integer> {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FOLDER", arity = "0..1", defaultValue = "/", description = "The folder to list "
        + "(default: /).")
    private String folder;

    @Mixin
    private LibraryOptions libraryOptions;

    @Option(names = "--json", description = "Every object under FOLDER as JSON.")
    private boolean json;

    /** One line of the listing: its columns, the name last. */
    record Row(String kind, String size, String what, String name) {
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        String prefix = ObjectNames.folder(folder);
        try (LibraryOptions.Opened opened = libraryOptions.openOrServer(libraryOptions.settings())) {
            List<Row> rows;
            if (opened.server() != null) {
                List<JsonNode> objects = opened.server().objects(prefix);
                if (json) {
                    out.println(MAPPER.writeValueAsString(objects.stream().map(LsCommand::json).toList()));
                    out.flush();
                    return 0;
                }
                rows = rows(prefix, objects);
            } else if (json) {
                List<Map<String, Object>> objects = new ArrayList<>();
                for (MediaObject object : opened.library().store().catalog().withPrefix(prefix)) {
                    objects.add(json(object));
                }
                out.println(MAPPER.writeValueAsString(objects));
                out.flush();
                return 0;
            } else {
                rows = opened.library().directory().list(prefix).stream().map(LsCommand::row).toList();
            }
            if (rows.isEmpty()) {
                out.println(prefix.equals("/") ? "the library is empty (rondo ingest FILE adds to it)"
                    : "nothing in " + prefix);
            }
            format(rows).forEach(out::println);
        }
        out.flush();
        return 0;
    }

    /** The rows in columns as wide as their widest cell: kind, size (right-aligned), what it is, name. */
    static List<String> format(List<Row> rows) {
        int kind = rows.stream().mapToInt(row -> row.kind().length()).max().orElse(0);
        int size = rows.stream().mapToInt(row -> row.size().length()).max().orElse(0);
        int what = rows.stream().mapToInt(row -> row.what().length()).max().orElse(0);
        String line = "%-" + Math.max(kind, 1) + "s  %" + Math.max(size, 1) + "s  %-" + Math.max(what, 1) + "s  %s";
        return rows.stream().map(row -> String.format(Locale.ROOT, line, row.kind(), row.size(), row.what(),
            row.name())).toList();
    }

    private static Row row(Directory.Entry entry) {
        if (entry.folder()) {
            return folderRow(entry.name(), entry.size(), entry.objects());
        }
        MediaObject object = entry.object();
        String what = object.media() == null ? object.mimeType()
            : media(object.media().durationNs() / 1e9, object.media().fragments().size(), object.media().codecs());
        return new Row(object.kind().name().toLowerCase(Locale.ROOT), ByteSizes.format(object.size()), what,
            object.name());
    }

    private static Row folderRow(String name, long size, int objects) {
        return new Row("folder", ByteSizes.format(size), "", name + " (" + objects + " object"
            + (objects == 1 ? "" : "s") + ")");
    }

    private static String media(double seconds, int fragments, String codecs) {
        return String.format(Locale.ROOT, "%.1f s, %d fragments, %s", seconds, fragments, codecs);
    }

    /** The rows of FOLDER from every object under it as the admin API shows them: sub-folders first. */
    private static List<Row> rows(String prefix, List<JsonNode> objects) {
        Map<String, long[]> folders = new TreeMap<>();
        List<Row> rows = new ArrayList<>();
        for (JsonNode object : objects) {
            String name = object.path("name").asText();
            String rest = name.substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash >= 0) {
                long[] totals = folders.computeIfAbsent(prefix + rest.substring(0, slash + 1), key -> new long[2]);
                totals[0]++;
                totals[1] += object.path("size").asLong();
                continue;
            }
            String what = object.path("fragments").isNumber()
                ? media(object.path("durationSeconds").asDouble(), object.path("fragments").asInt(),
                    object.path("codecs").asText(""))
                : object.path("mimeType").asText();
            rows.add(new Row(object.path("kind").asText(), ByteSizes.format(object.path("size").asLong()), what,
                name));
        }
        List<Row> listing = new ArrayList<>();
        folders.forEach((name, totals) -> listing.add(folderRow(name, totals[1], (int) totals[0])));
        listing.addAll(rows);
        return listing;
    }

    /** An object as the admin API shows it, in the fields and names of {@code ls --json}. */
    private static Map<String, Object> json(JsonNode object) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", object.path("name").asText());
        fields.put("kind", object.path("kind").asText());
        fields.put("mime", object.path("mimeType").asText());
        fields.put("size", object.path("size").asLong());
        fields.put("etag", object.path("etag").asText());
        fields.put("modified", object.path("modified").asText());
        List<String> disks = new ArrayList<>();
        object.path("disks").forEach(disk -> disks.add(disk.asText()));
        fields.put("disks", disks);
        if (object.path("fragments").isNumber()) {
            fields.put("codecs", object.path("codecs").asText(""));
            fields.put("duration_s", object.path("durationSeconds").asDouble());
            fields.put("fragments", object.path("fragments").asInt());
            fields.put("average_bitrate", object.path("bitsPerSecond").asLong());
        }
        return fields;
    }

    static Map<String, Object> json(MediaObject object) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", object.name());
        fields.put("id", object.id());
        fields.put("kind", object.kind().name().toLowerCase(Locale.ROOT));
        fields.put("mime", object.mimeType());
        fields.put("size", object.size());
        fields.put("etag", object.etag());
        fields.put("created", Instant.ofEpochMilli(object.createdMs()).toString());
        fields.put("modified", Instant.ofEpochMilli(object.modifiedMs()).toString());
        fields.put("disks", object.placement().files().stream().map(StoredFile::disk).distinct().toList());
        if (object.media() != null) {
            fields.put("container", object.media().container());
            fields.put("codecs", object.media().codecs());
            fields.put("mse_type", object.media().mseType());
            fields.put("duration_s", object.media().durationNs() / 1e9);
            fields.put("fragments", object.media().fragments().size());
            fields.put("average_bitrate", object.media().averageBitRate());
            fields.put("peak_bitrate", object.media().peakBitRate());
        }
        return fields;
    }
}
