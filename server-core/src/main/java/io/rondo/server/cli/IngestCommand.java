package io.rondo.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.rondo.server.cli.console.Progress;
import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.ingest.ObjectNames;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.cli.admin.LibraryServer;
import io.rondo.server.config.BitRates;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import io.rondo.server.content.PlayerFiles;
import io.rondo.server.runtime.DiskModels;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code rondo ingest}: copies files into the library, crash-safely, remuxing media as it goes. */
@Command(name = "ingest",
    description = {
        "Copy files into Rondo's library.",
        "",
        "MP4 (plain or fragmented), WebM, Matroska and MP3 are continuous objects: remuxed so that each round of "
            + "presentation is one fragment, whatever the keyframe interval, and striped over the disks. Media whose "
            + "codecs no browser plays is stored as discrete data, with a note saying how to make it streamable. "
            + "Anything else is discrete, served whole or by range. Each file is written aside, forced "
            + "to disk and renamed before its catalog entry is written, so a crash leaves it whole or not at all. "
            + "A name already taken is refused: remove the old object first (rondo rm) or choose another (--as).",
        "",
        "A folder is ingested whole: DIR/a/b.mp4 becomes /DIR/a/b.mp4 (hidden files, .name, are left out), with "
            + "one progress bar for all its files.",
        "",
        "While rondo serve holds the library, the files are uploaded through its admin API (the address it wrote "
            + "to DATA/rondo/admin.url, the token in DATA/rondo/admin.token) and ingested by the server.",
        "",
        "On a disk with no stored disk model (storage.diskProfile: measured, the default) the first ingest profiles "
            + "its device for a few seconds, as 'rondo serve' would, and stores the profile in the storage root."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class IngestCommand implements Callable<Integer> {

    private static final long PROGRESS_FROM_BYTES = 16L << 20;
    private static final String ERROR_PREFIX = "rondo ingest: ";

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "The files to ingest, or folders: every file "
        + "under a folder, at any depth, keeping its path under the folder.")
    private List<Path> files;

    @Mixin
    private LibraryOptions libraryOptions;

    @Option(names = "--as", paramLabel = "NAME",
        description = "The object's name (one FILE only), or for a folder the library folder its files go in; "
            + "default: /FILE's name.")
    private String name;

    @Option(names = "--kind", paramLabel = "KIND",
        description = "discrete or continuous; default: continuous for streamable media, discrete otherwise.")
    private String kind;

    @Option(names = "--bitrate", paramLabel = "BITS",
        description = "Stream a file Rondo cannot parse (e.g. MPEG-TS) at this declared bit rate in bits a second, "
            + "e.g. 2M (k, M, G: powers of 1000).")
    private String bitRate;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    private boolean quiet;

    @Override
    public Integer call() throws IOException {
        if (name != null && files.size() > 1) {
            throw new IllegalArgumentException("--as names one object; give one FILE with it");
        }
        Kind declared = kind == null ? null : switch (kind.toLowerCase(Locale.ROOT)) {
            case "discrete" -> Kind.DISCRETE;
            case "continuous" -> Kind.CONTINUOUS;
            default -> throw new IllegalArgumentException("--kind must be discrete or continuous, was '" + kind + "'");
        };
        long bits = bitRate == null ? 0 : BitRates.parse(bitRate, "--bitrate");
        if (bits == AdmissionConfig.UNLIMITED_NETWORK) {
            throw new IllegalArgumentException("--bitrate must be a rate in bits a second like 2M (k, M, G: powers "
                + "of 1000), was '" + bitRate + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RondoConfig settings = libraryOptions.settings();
        List<Item> items = items(settings);
        for (Item item : items) {
            if (item.name() != null && PlayerFiles.reserved(item.name())) {
                throw new IllegalArgumentException(PlayerFiles.FOLDER + " holds Rondo's bundled player; choose "
                    + "another name than " + item.name());
            }
        }
        int failed;
        try (LibraryOptions.Opened opened = libraryOptions.openOrServer(settings)) {
            Library library = opened.library();
            if (library != null) {
                library.notes().forEach(note -> out.println("note: " + note));
                measureNewDisks(settings, library, out, err);
            }
            failed = ingest(items, opened, declared, bits, out, err);
        }
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /** Ingests the items here or through the running server, under one progress bar; returns how many failed. */
    private int ingest(List<Item> items, LibraryOptions.Opened opened, Kind declared, long bits, PrintWriter out,
                       PrintWriter err) throws IOException {
        Library library = opened.library();
        int failed = 0;
        try (Batch batch = new Batch(items, quiet)) {
            for (Item item : items) {
                try {
                    if (library != null) {
                        MediaObject object = library.ingest().ingest(new IngestRequest(item.file(), item.name(),
                            declared, bits), batch::copied, note -> err.println("note: " + note));
                        out.println(describe(object));
                    } else {
                        String named = item.name() != null ? item.name() : "/" + item.file().getFileName();
                        LibraryServer.Uploaded uploaded = opened.server().upload(item.file(), named, declared == null
                            ? null : declared.name().toLowerCase(Locale.ROOT), bitRate, batch::sent);
                        if (uploaded.note() != null) {
                            err.println("note: " + uploaded.note());
                        }
                        out.println(describe(uploaded.object()));
                    }
                } catch (IngestException | LibraryServer.Refused e) {
                    err.println(ERROR_PREFIX + e.getMessage());
                    failed++;
                }
                batch.done(item);
            }
        }
        return failed;
    }

    /**
     * A file to ingest and its object's name (null: the file's name at the root).
     *
     * @param file the file
     * @param name the object's name, or null
     * @param size its bytes, for the progress bar
     */
    record Item(Path file, String name, long size) {
    }

    /**
     * The files to ingest: each FILE as it is (named by --as or by its file name), and every file
     * under each folder, in name order, named by its path under the folder, in a library folder of
     * the folder's name (or --as). Hidden files and folders (.name) are left out, and so are the
     * storage roots, should the folder hold the library itself.
     */
    private List<Item> items(RondoConfig settings) throws IOException {
        List<Path> roots = (libraryOptions.data() != null ? List.of(libraryOptions.data()) : settings.storageRoots())
            .stream().map(root -> root.toAbsolutePath().normalize()).toList();
        List<Item> items = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isDirectory(file)) {
                items.add(new Item(file, name, Files.isRegularFile(file) ? Files.size(file) : 0));
                continue;
            }
            Path root = file.toAbsolutePath().normalize();
            String folder = name != null ? ObjectNames.folder(name)
                : root.getFileName() == null ? "/" : ObjectNames.folder(root.getFileName().toString());
            List<Path> found;
            try (Stream<Path> walk = Files.walk(root)) {
                found = walk.filter(path -> !hidden(root.relativize(path)))
                    .filter(path -> roots.stream().noneMatch(path::startsWith))
                    .filter(Files::isRegularFile).sorted().toList();
            }
            if (found.isEmpty()) {
                throw new IllegalArgumentException(file + " holds no file to ingest (hidden files are left out)");
            }
            for (Path path : found) {
                List<String> segments = new ArrayList<>();
                root.relativize(path).forEach(segment -> segments.add(segment.toString()));
                items.add(new Item(path, folder + String.join("/", segments), Files.size(path)));
            }
        }
        return items;
    }

    private static boolean hidden(Path relative) {
        for (Path segment : relative) {
            if (segment.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** One progress bar for the whole batch, in bytes copied or sent; none when quiet or small. */
    private static final class Batch implements AutoCloseable {

        private final ProgressBar bar;
        private long finished;
        private long current;

        Batch(List<Item> items, boolean quiet) {
            long total = items.stream().mapToLong(Item::size).sum();
            String task = items.size() == 1 ? items.get(0).file().getFileName().toString()
                : "ingesting " + items.size() + " files";
            this.bar = quiet || total < PROGRESS_FROM_BYTES ? null : Progress.bar(task, total >> 20, " MiB");
        }

        /** The current file's bytes copied so far. */
        void copied(long bytes) {
            current = bytes;
            step();
        }

        /** More of the current file's bytes sent. */
        void sent(long bytes) {
            current += bytes;
            step();
        }

        /** The current file is done, ingested or refused. */
        void done(Item item) {
            finished += item.size();
            current = 0;
            step();
        }

        private void step() {
            if (bar != null) {
                bar.stepTo((finished + current) >> 20);
            }
        }

        @Override
        public void close() {
            if (bar != null) {
                bar.close();
            }
        }
    }

    /**
     * A disk's first start may as well be its first ingest: while it is empty, its device is
     * profiled for the model the server will plan with, as {@code rondo serve} would do.
     */
    private void measureNewDisks(RondoConfig settings, Library library, PrintWriter out, PrintWriter err) {
        if (!settings.measuredDiskProfile()) {
            return;
        }
        try (MeasuringListener measuring = new MeasuringListener(err, quiet, () -> false)) {
            DiskModels models = DiskModels.real(DiskIo.best(), SystemClocks.nanoClock(), SystemClocks.epochClock());
            for (DiskModels.Choice choice : models.choose(settings.diskProfile(), "configured",
                library.store().disks(), false, measuring)) {
                if (choice.source() == DiskModels.Source.MEASURED || choice.source() == DiskModels.Source.FALLBACK) {
                    out.println("note: " + choice.account());
                }
            }
        }
    }

    static String describe(MediaObject object) {
        String where = String.join(", ", object.placement().files().stream().map(StoredFile::disk).distinct()
            .toList());
        if (object.media() == null) {
            return String.format(Locale.ROOT, "ingested %s: discrete, %s, %s, on %s", object.name(), object.mimeType(),
                ByteSizes.format(object.size()), where);
        }
        return String.format(Locale.ROOT, "ingested %s: continuous, %s, %.1f s in %d fragments, %s (%s), on %s",
            object.name(), object.media().mseType(), object.media().durationNs() / 1e9,
            object.media().fragments().size(), ByteSizes.format(object.size()),
            String.format(Locale.ROOT, "%.0f kbit/s", object.media().averageBitRate() / 1e3), where);
    }

    /** What a running server stored, from the object as its admin API shows it. */
    static String describe(JsonNode object) {
        List<String> disks = new ArrayList<>();
        object.path("disks").forEach(disk -> disks.add(disk.asText()));
        String where = String.join(", ", disks);
        String name = object.path("name").asText();
        String size = ByteSizes.format(object.path("size").asLong());
        if (!object.path("fragments").isNumber()) {
            return String.format(Locale.ROOT, "ingested %s: discrete, %s, %s, on %s", name,
                object.path("mimeType").asText(), size, where);
        }
        String codecs = object.path("codecs").asText("");
        String type = object.path("mimeType").asText() + (codecs.isEmpty() ? "" : "; codecs=\"" + codecs + "\"");
        return String.format(Locale.ROOT,
            "ingested %s: continuous, %s, %.1f s in %d fragments, %s (%.0f kbit/s), on %s", name, type,
            object.path("durationSeconds").asDouble(), object.path("fragments").asInt(), size,
            object.path("bitsPerSecond").asDouble() / 1e3, where);
    }
}
