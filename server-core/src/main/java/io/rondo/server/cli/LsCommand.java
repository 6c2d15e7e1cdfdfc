package io.rondo.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rondo.content.ingest.Directory;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.content.Library;
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
import java.util.concurrent.Callable;

/** {@code rondo ls}: what the library holds. */
@Command(name = "ls",
    description = {
        "List the library: the folders and objects in FOLDER (default /).",
        "With --json, every object under FOLDER, at any depth, as one JSON array."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class LsCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FOLDER", defaultValue = "/", description = "The folder to list (default: /).")
    private String folder;

    @Mixin
    private LibraryOptions libraryOptions;

    @Option(names = "--json", description = "Every object under FOLDER as JSON.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        try (Library library = libraryOptions.open()) {
            String prefix = ObjectNames.folder(folder);
            if (json) {
                List<Map<String, Object>> objects = new ArrayList<>();
                for (MediaObject object : library.store().catalog().withPrefix(prefix)) {
                    objects.add(json(object));
                }
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(objects));
            } else {
                List<Directory.Entry> entries = library.directory().list(prefix);
                if (entries.isEmpty()) {
                    out.println(prefix.equals("/") ? "the library is empty (rondo ingest FILE adds to it)"
                        : "nothing in " + prefix);
                }
                for (Directory.Entry entry : entries) {
                    out.println(line(entry));
                }
            }
        }
        out.flush();
        return 0;
    }

    private static String line(Directory.Entry entry) {
        if (entry.folder()) {
            return String.format(Locale.ROOT, "%-10s %10s  %-34s %s (%d object%s)", "folder",
                ByteSizes.format(entry.size()), "", entry.name(), entry.objects(), entry.objects() == 1 ? "" : "s");
        }
        MediaObject object = entry.object();
        String what = object.media() == null ? object.mimeType()
            : String.format(Locale.ROOT, "%.1f s, %d fragments, %s", object.media().durationNs() / 1e9,
                object.media().fragments().size(), object.media().codecs());
        return String.format(Locale.ROOT, "%-10s %10s  %-34s %s", object.kind().name().toLowerCase(Locale.ROOT),
            ByteSizes.format(object.size()), what, object.name());
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
