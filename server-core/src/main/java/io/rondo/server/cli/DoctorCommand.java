package io.rondo.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rondo.scheduler.device.DiskIo;
import io.rondo.scheduler.device.DiskLayout;
import io.rondo.scheduler.device.DiskLayout.ConfiguredDisk;
import io.rondo.scheduler.device.DiskProbe;
import io.rondo.server.config.ByteSizes;
import io.rondo.server.config.MemoryBudget;
import io.rondo.server.config.RondoConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rondo doctor}: what this machine offers Rondo, found by trying rather than by asking.
 * The native reader may not load, and a file system may refuse O_DIRECT or FIEMAP whatever the
 * reader claims (DESIGN.md, "Disks"); each storage root gets a small test file read back with
 * O_DIRECT and located with FIEMAP, and the roots are grouped into disks as the server would.
 */
@Command(name = "doctor",
    description = {
        "Check what this machine offers Rondo: the disk reader in use (native, or pure Java and why), whether "
            + "O_DIRECT and FIEMAP work in each storage root (tried with a small test file, then deleted), and the "
            + "disks the roots make (device, MAJ:MIN, rotational, block size, free space).",
        "",
        "Roots come from the arguments, else from storage.roots in the configuration (the default root 'data' is "
            + "created if missing). Exit status: 0 if everything Rondo needs works, 1 if something is missing "
            + "(the report says what), 2 for a bad argument or configuration."},
    mixinStandardHelpOptions = true,
    sortOptions = false)
final class DoctorCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "Print one JSON object instead of the report.")
    private boolean json;

    @Option(names = "--config", paramLabel = "FILE",
        description = "The configuration file (default: config/rondo.yaml; defaults if there is none).")
    private Path config;

    @Parameters(paramLabel = "ROOT", arity = "0..*",
        description = "Storage roots to check instead of the configuration's storage.roots.")
    private List<Path> roots = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        RondoConfig settings = config != null ? RondoConfig.load(config)
            : RondoConfig.loadOrDefaults(RondoConfig.defaultFile());
        List<String> notes = new ArrayList<>();
        List<Path> checked = roots.isEmpty() ? settings.storageRoots() : roots;
        if (roots.isEmpty() && settings.defaultStorageRoots()) {
            for (Path root : checked) {
                if (!Files.exists(root)) {
                    Files.createDirectories(root);
                    notes.add("created the default storage root " + root.toAbsolutePath().normalize());
                }
            }
        }
        DiskIo io = DiskIo.best();
        DiskLayout layout = DiskLayout.of(checked, io);
        notes.addAll(layout.notes());
        boolean nativeReader = "native".equals(io.kind());

        Map<Path, DiskProbe.Result> probes = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (ConfiguredDisk disk : layout.disks()) {
            for (Path root : disk.roots()) {
                DiskProbe.Result probe = DiskProbe.probe(io, root);
                probes.put(root, probe);
                if (!probe.directIo()) {
                    problems.add(root + ": O_DIRECT reads do not work: " + probe.directProblem());
                }
                if (!probe.fiemap() && nativeReader && !probe.fiemapProblem().equals(probe.directProblem())) {
                    problems.add(root + ": FIEMAP does not work, so SCAN has no positions: " + probe.fiemapProblem());
                }
            }
        }
        if (!nativeReader) {
            warnings.add("the native disk reader is not in use (" + io.fallbackReason() + "): the pure-Java reader "
                + "knows no physical positions, so SCAN orders reads by their offsets within each file");
        }
        MemoryBudget memory = settings.memoryBudget();
        warnings.addAll(memory.warnings());
        boolean direct = probes.values().stream().allMatch(DiskProbe.Result::directIo);
        boolean fiemap = probes.values().stream().allMatch(DiskProbe.Result::fiemap);
        Report report = new Report(io, settings, memory, layout, probes, direct, fiemap, notes, warnings,
            problems);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(report.json()));
        } else {
            report.print(out);
        }
        out.flush();
        return problems.isEmpty() ? 0 : 1;
    }

    /** What was found, as a report or as JSON. */
    private record Report(DiskIo io, RondoConfig settings, MemoryBudget memory, DiskLayout layout,
                          Map<Path, DiskProbe.Result> probes, boolean direct, boolean fiemap, List<String> notes,
                          List<String> warnings, List<String> problems) {

        ObjectNode json() throws IOException {
            ObjectNode root = JSON.createObjectNode();
            root.put("ok", problems.isEmpty());
            root.put("reader", io.kind());
            root.put("native", "native".equals(io.kind()));
            root.put("nativeProblem", io.fallbackReason());
            root.put("odirect", direct);
            root.put("fiemap", fiemap);
            root.put("config", settings.source().map(Path::toString).orElse(null));
            ObjectNode budget = root.putObject("memory");
            budget.put("heapBytes", memory.heapBytes());
            budget.put("directBytes", memory.directBytes());
            budget.put("buffersCeilingBytes", memory.ceilingBytes());
            budget.put("hotObjectsBytes", memory.hotObjectsBytes());
            budget.put("sizedForBytes", memory.sizedForBytes());
            budget.put("sizedBy", memory.sizedBy());
            ArrayNode disks = root.putArray("disks");
            for (ConfiguredDisk disk : layout.disks()) {
                ObjectNode node = disks.addObject();
                node.put("name", disk.name());
                node.put("device", disk.device().id());
                node.put("major", disk.device().major());
                node.put("minor", disk.device().minor());
                node.put("rotational", disk.device().rotational());
                node.put("logicalBlockSize", disk.device().logicalBlockSize());
                node.put("freeBytes", freeBytes(disk));
                ArrayNode paths = node.putArray("roots");
                disk.roots().forEach(path -> paths.add(path.toString()));
            }
            ArrayNode checks = root.putArray("checks");
            for (DiskProbe.Result probe : probes.values()) {
                ObjectNode node = checks.addObject();
                node.put("root", probe.root().toString());
                node.put("odirect", probe.directIo());
                node.put("odirectProblem", probe.directProblem());
                node.put("fiemap", probe.fiemap());
                node.put("fiemapProblem", probe.fiemapProblem());
            }
            notes.forEach(root.putArray("notes")::add);
            warnings.forEach(root.putArray("warnings")::add);
            problems.forEach(root.putArray("problems")::add);
            return root;
        }

        void print(PrintWriter out) throws IOException {
            out.println("Rondo doctor: what this machine offers Rondo");
            out.println();
            out.printf(Locale.ROOT, "  %-9s %s%n", "reader", "native".equals(io.kind())
                ? "native (librondo_disk.so: O_DIRECT reads, FIEMAP positions)"
                : io.kind() + " (the native reader is unavailable: " + io.fallbackReason() + ")");
            out.printf(Locale.ROOT, "  %-9s %s%n", "O_DIRECT", verdict(direct, true));
            out.printf(Locale.ROOT, "  %-9s %s%n", "FIEMAP", verdict(fiemap, false));
            out.printf(Locale.ROOT, "  %-9s %s%n", "config", settings.source().map(Path::toString)
                .orElse("none found (" + RondoConfig.defaultFile() + "): the defaults"));
            out.printf(Locale.ROOT, "  %-9s %s%n", "memory",
                memory.describe().substring("memory: ".length()));
            out.println();
            out.println(layout.disks().size() == 1 ? "Disk" : "Disks");
            for (ConfiguredDisk disk : layout.disks()) {
                out.printf(Locale.ROOT, "  %-8s %-7s %s, %d-byte logical blocks, %s free%n", disk.name(),
                    disk.device().id(), disk.device().rotational() ? "rotational" : "non-rotational",
                    disk.device().logicalBlockSize(), ByteSizes.format(freeBytes(disk)));
                for (Path root : disk.roots()) {
                    out.printf(Locale.ROOT, "  %-8s %s%n", "", root);
                }
            }
            section(out, "Notes", notes);
            section(out, "Warnings", warnings);
            section(out, "Missing", problems);
            out.println();
            out.println(problems.isEmpty() ? "Everything Rondo needs works here."
                : "Rondo cannot run well here until the above is fixed.");
        }

        private String verdict(boolean works, boolean needed) {
            int count = probes.size();
            String where = count == 1 ? "the storage root" : count == 2 ? "both storage roots"
                : "all " + count + " storage roots";
            if (works) {
                return "works (tried in " + where + ")";
            }
            if (!needed && !"native".equals(io.kind())) {
                return "not used by the " + io.kind() + " reader: logical offsets stand in for positions";
            }
            return "does NOT work in " + (count == 1 ? where : "some storage roots") + " (see Missing)";
        }

        private static void section(PrintWriter out, String title, List<String> lines) {
            if (!lines.isEmpty()) {
                out.println();
                out.println(title);
                lines.forEach(line -> out.println("  - " + line));
            }
        }

        private static long freeBytes(ConfiguredDisk disk) throws IOException {
            return Files.getFileStore(disk.roots().get(0)).getUsableSpace();
        }
    }
}
