package io.rondo.server.cli;

import io.rondo.content.ingest.IngestException;
import io.rondo.content.ingest.IngestRequest;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.StoredFile;
import io.rondo.scheduler.admission.AdmissionConfig;
import io.rondo.scheduler.device.DiskIo;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

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
        "On a disk with no stored disk model (storage.diskProfile: measured, the default) the first ingest profiles "
            + "its device for a few seconds, as 'rondo serve' would, and stores the profile in the storage root."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class IngestCommand implements Callable<Integer> {

    private static final long PROGRESS_FROM_BYTES = 16L << 20;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "The files to ingest.")
    private List<Path> files;

    @Mixin
    private LibraryOptions libraryOptions;

    @Option(names = "--as", paramLabel = "NAME",
        description = "The object's name (one FILE only); default: /FILE's name.")
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
        if (name != null && PlayerFiles.reserved(name)) {
            throw new IllegalArgumentException(PlayerFiles.FOLDER + " holds Rondo's bundled player; choose another "
                + "name than " + name);
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
        int failed = 0;
        RondoConfig settings = libraryOptions.settings();
        try (Library library = Library.open(settings, libraryOptions.data())) {
            library.notes().forEach(note -> out.println("note: " + note));
            measureNewDisks(settings, library, out, err);
            for (Path file : files) {
                try {
                    MediaObject object = ingestOne(library, new IngestRequest(file, name, declared, bits),
                        note -> err.println("note: " + note));
                    out.println(describe(object));
                } catch (IngestException e) {
                    err.println("rondo ingest: " + e.getMessage());
                    failed++;
                }
            }
        }
        out.flush();
        return failed == 0 ? 0 : 1;
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
            for (DiskModels.Choice choice : DiskModels.real(DiskIo.best()).choose(settings.diskProfile(), "configured",
                library.store().disks(), false, measuring)) {
                if (choice.source() == DiskModels.Source.MEASURED || choice.source() == DiskModels.Source.FALLBACK) {
                    out.println("note: " + choice.account());
                }
            }
        }
    }

    private MediaObject ingestOne(Library library, IngestRequest request, Consumer<String> notes)
        throws IngestException, IOException {
        long size = Files.isRegularFile(request.source()) ? Files.size(request.source()) : 0;
        if (quiet || size < PROGRESS_FROM_BYTES) {
            return library.ingest().ingest(request, copied -> { }, notes);
        }
        try (ProgressBar bar = Progress.bar(request.source().getFileName().toString(), size >> 20, " MiB")) {
            return library.ingest().ingest(request, copied -> bar.stepTo(copied >> 20), notes);
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
}
