package io.rondo.benchmarks.cli;

import io.rondo.benchmarks.preset.accuracy.AdmissionAccuracyPreset;
import io.rondo.benchmarks.preset.clientbuffers.ClientBuffersPreset;
import io.rondo.benchmarks.preset.cluster.ClusterPreset;
import io.rondo.benchmarks.preset.combination.CombinationPreset;
import io.rondo.benchmarks.preset.discrete.DiscretePreset;
import io.rondo.benchmarks.preset.hls.HlsPreset;
import io.rondo.benchmarks.preset.jitter.JitterPreset;
import io.rondo.benchmarks.preset.live.LiveCapacityPreset;
import io.rondo.benchmarks.preset.live.TimeshiftPreset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rondo bench}: load tests of Rondo, each a preset that starts what it measures (Rondo,
 * nginx beside it) on this machine and writes its JSON, charts and table. {@code --preset NAME}
 * and the preset's name as a subcommand are the same.
 */
@Command(name = "bench",
    description = {"Load-test Rondo beside nginx in one run, on this machine's disk, and write JSON, charts and a "
        + "side-by-side summary.",
        "",
        "Presets (--preset NAME, or NAME as a subcommand; each takes --help, --quick for a smoke run, --out DIR):",
        "  discrete-vs-nginx  discrete HTTP requests, Rondo beside nginx (sendfile, directio+aio), then with streams",
        "  table1             papers/000 Table 1: MaxN against what Adm1, Adm2 and Adm3 admit, emulated paper disk",
        "  figure14           papers/002 Figure 14: stream jitter, Rondo's guarantees beside nginx's paced Range",
        "                     reads, under 8 greedy downloaders",
        "  timeshift          papers/002 Section 5.2: 2 recordings and a timeshifted viewer under 8 greedy readers,",
        "                     write and read jitter, Rondo beside best effort (page cache + fsync, nginx)",
        "  live-capacity      20 recordings of 4 Mbit/s, 200 viewers (live edge and 20 s behind), 8 greedy",
        "                     downloads: late writes, late fragments, refusals by reason",
        "  client-buffers     papers/004 Figures 21-22: streams admitted under a fixed buffer ceiling with DblBuf,",
        "                     ClBuf and ClBufRate, fragments of 64 KiB to 8 MiB, emulated paper disk and this disk",
        "  combination        papers/003 on a server: stream combination on against off, 128-1024 kbit/s streams",
        "                     offered one a round to the emulated paper disk; streams admitted, late fragments",
        "  cluster            issue 25: one emulated-disk node, then three behind HAProxy: streams admitted (target",
        "                     >= 2.8x), late fragments; a node killed with kill -9 under load: streams resumed,",
        "                     gaps against the players' buffers, objects lost",
        "  hls                issue 26: N HLS sessions' part GETs from Rondo beside nginx serving the same byte",
        "                     ranges, with and without 8 greedy downloaders: part response p50/p99, late parts",
        "",
        "  rondo bench --preset discrete-vs-nginx",
        "  rondo bench discrete-vs-nginx --quick --out /tmp/bench",
        ""},
    mixinStandardHelpOptions = true,
    version = "Rondo bench 0.1.0",
    subcommands = {DiscretePreset.class, AdmissionAccuracyPreset.class, JitterPreset.class, TimeshiftPreset.class,
        LiveCapacityPreset.class, ClientBuffersPreset.class, CombinationPreset.class,
        ClusterPreset.class, HlsPreset.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:The run ended and its results were written, whatever they show.",
        "1:The run failed: a server did not start, a tool is missing, the results could not be written.",
        "2:Bad usage: an unknown preset or a bad option."})
public final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Runs {@code bench} with {@code args}; returns the exit code. */
    public static int execute(String... args) {
        CommandLine line = new CommandLine(new BenchCommand());
        line.setExecutionExceptionHandler((exception, command, parsed) -> {
            command.getErr().println("rondo bench: " + exception.getMessage());
            command.getErr().flush();
            return 1;
        });
        return line.execute(presetAsSubcommand(args));
    }

    @Override
    public Integer call() {
        CommandLine line = spec.commandLine();
        line.usage(line.getErr());
        return CommandLine.ExitCode.USAGE;
    }

    /** {@code --preset NAME} or {@code --preset=NAME} anywhere before the preset's options becomes {@code NAME}. */
    static String[] presetAsSubcommand(String... args) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--preset") && i + 1 < args.length) {
                out.add(args[++i]);
            } else if (args[i].startsWith("--preset=")) {
                out.add(args[i].substring("--preset=".length()));
            } else {
                out.add(args[i]);
            }
        }
        return out.toArray(String[]::new);
    }
}
