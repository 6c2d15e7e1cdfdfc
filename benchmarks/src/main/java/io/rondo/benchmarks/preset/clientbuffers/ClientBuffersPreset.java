package io.rondo.benchmarks.preset.clientbuffers;

import io.rondo.benchmarks.rig.Clip;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.scheduler.admission.BufferMode;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.config.ByteSizes;
import org.agrona.concurrent.NanoClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The {@code client-buffers} preset of {@code rondo bench}: papers/004 Figures 21-22, the streams a
 * fixed buffer ceiling admits with double buffering (DblBuf), with clients that buffer (ClBuf) and
 * with clients that buffer and receive fast (ClBufRate), for fragment sizes from 64 KiB to 8 MiB.
 * The fragment size is set by the round length at a fixed bit rate (2 Mbit/s video, 64 kbit/s
 * audio): a fragment is one round of media, and each point's round makes fragments that fill a
 * buffer of the size named ({@link PointRun#roundMs}). Each point runs its own Rondo server in this process,
 * on the emulated paper disk or on this machine's disk as measured.
 */
@Command(name = "client-buffers", mixinStandardHelpOptions = true,
    description = {
        "Reproduce papers/004 Figures 21-22: streams admitted under a fixed buffer ceiling with DblBuf, ClBuf and "
            + "ClBufRate, for fragments filling buffers of 64 KiB to 8 MiB (the round length at the clip's bit rate), "
            + "video "
            + "clients (2 Mbit/s, declaring 16 MiB and 100 Mbit/s) and audio clients (64 kbit/s, declaring 16 MiB "
            + "and 10 Mbit/s), on the emulated paper disk and on this machine's disk.",
        "Each OPEN's answer is checked (ACCEPT in the mode expected, else the REJECT that ends the ramp); the admitted "
            + "streams then play together for some rounds and their late fragments are counted.",
        "Writes DIR/client-buffers.json, DIR/client-buffers.md and DIR/client-buffers-DISK-CLIENTS.png."},
    sortOptions = false)
public final class ClientBuffersPreset implements Callable<Integer> {

    /** Video clients' bit rate: the target. */
    static final long VIDEO_BITS = 2_000_000;
    /** Audio clients' bit rate: papers/004 Figure 22. */
    static final long AUDIO_BITS = 64_000;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the results go (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench-results", "client-buffers");

    @Option(names = "--work", paramLabel = "DIR", description = "Where the clips and each point's server data go "
        + "(default: ${DEFAULT-VALUE}).")
    Path work = Path.of("bench-work", "client-buffers");

    @Option(names = "--quick", description = "A smoke run for CI: video clients, 256 KiB fragments, the emulated "
        + "disk, at most 24 streams a mode, 2 rounds of play; the same code.")
    boolean quick;

    @Option(names = "--ceiling", paramLabel = "BYTES", description = "buffers.ceiling (default: 64M; 4M with "
        + "--quick, so that double buffers run out before the emulated disk does).")
    String ceiling;

    @Option(names = "--disks", split = ",", paramLabel = "DISK", description = "emulated, local, or both "
        + "(default: emulated,local).")
    List<String> disks = List.of("emulated", "local");

    @Option(names = "--clients", split = ",", paramLabel = "KIND", description = "video, audio, or both "
        + "(default: video,audio).")
    List<String> clients = List.of("video", "audio");

    @Option(names = "--sizes", split = ",", paramLabel = "BYTES", description = "Buffer sizes the rounds' fragments "
        + "fill (default: 64K,256K,1M,4M,8M for video; audio takes those of them up to 256K, its rounds being 6 s and "
        + "29 s).")
    List<String> sizes = List.of("64K", "256K", "1M", "4M", "8M");

    @Option(names = "--max-streams", paramLabel = "N", description = "The most streams a point opens "
        + "(default: ${DEFAULT-VALUE}).")
    int maxStreams = 600;

    @Option(names = "--play-rounds", paramLabel = "N", description = "Rounds the admitted streams play together "
        + "(default: ${DEFAULT-VALUE}).")
    int playRounds = 3;

    @Option(names = "--modes", split = ",", paramLabel = "MODE", description = "dblbuf, clbuf, clbufrate "
        + "(default: all three).")
    List<String> modes = List.of("dblbuf", "clbuf", "clbufrate");

    /** Runs the preset standalone; exits with its code. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ClientBuffersPreset()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        long ceilingBytes = ByteSizes.parse(ceiling != null ? ceiling : quick ? "4M" : "64M", "--ceiling");
        List<String> diskKinds = quick ? List.of("emulated") : disks;
        List<String> clientKinds = quick ? List.of("video") : clients;
        List<Long> fragmentSizes = new ArrayList<>();
        for (String size : quick ? List.of("256K") : sizes) {
            fragmentSizes.add(ByteSizes.parse(size, "--sizes"));
        }
        int streamCap = quick ? 24 : maxStreams;
        int rounds = quick ? 2 : playRounds;
        NanoClock clock = SystemClocks.nanoClock();
        long startNs = clock.nanoTime();
        stdout.printf(Locale.ROOT, "papers/004 Figures 21-22: buffers.ceiling %s, disks %s, clients %s, fragments %s,"
            + " at most %d streams a point, %d rounds of play%n", ClientBuffersReport.size(ceilingBytes), diskKinds,
            clientKinds, fragmentSizes.stream().map(ClientBuffersReport::size).toList(), streamCap, rounds);
        List<BufferPoint> points = new ArrayList<>();
        for (String disk : diskKinds) {
            for (String kind : clientKinds) {
                boolean video = kind.equals("video");
                long bits = video ? VIDEO_BITS : AUDIO_BITS;
                ClientProfile profile = new ClientProfile(video ? 12_500_000 : 1_250_000, 16L << 20);
                for (long fragment : fragmentSizes) {
                    if (!video && fragment > 256 * 1024) {
                        continue;
                    }
                    long roundMs = PointRun.roundMs(fragment, bits);
                    int seconds = (int) Math.max(quick ? 40 : 120, (rounds + 4) * roundMs / 1000 + 90);
                    Path clip = video ? Clip.makeConstant(work.resolve("clips"), bits, seconds)
                        : Clip.makeAudio(work.resolve("clips"), bits, seconds);
                    for (BufferMode mode : modes()) {
                        points.add(PointRun.run(new PointRun.Setup(disk, disk.equals("emulated"), kind, clip, bits,
                            fragment, ceilingBytes, mode, profile, streamCap, rounds, work), stdout));
                    }
                }
            }
        }
        double seconds = (clock.nanoTime() - startNs) / 1e9;
        String description = String.format(Locale.ROOT, "buffers.ceiling %s; video clients 2 Mbit/s declaring 16 MiB "
                + "and 100 Mbit/s, audio clients 64 kbit/s declaring 16 MiB and 10 Mbit/s; each round as long as "
                + "fragments that fill the buffer size named; at most %d streams a point, then %d rounds of play; "
                + "emulated = papers/001's disk, local = this machine's disk as measured; %.0f s. Command: rondo bench "
                + "client-buffers%s",
            ClientBuffersReport.size(ceilingBytes), streamCap, rounds, seconds, quick ? " --quick" : "");
        Files.createDirectories(out);
        String table = ClientBuffersReport.markdown(points, description);
        stdout.print(table);
        Files.writeString(out.resolve("client-buffers.md"), table);
        ClientBuffersReport.writeJson(out.resolve("client-buffers.json"), settings(ceilingBytes, streamCap, rounds),
            points);
        List<Path> charts = ClientBuffersReport.writeCharts(out, points, ceilingBytes);
        stdout.printf(Locale.ROOT, "wrote %s, %s and %s%n", out.resolve("client-buffers.json"),
            out.resolve("client-buffers.md"), charts);
        return 0;
    }

    private List<BufferMode> modes() {
        List<BufferMode> chosen = new ArrayList<>();
        for (BufferMode mode : BufferMode.values()) {
            if (modes.contains(mode.label())) {
                chosen.add(mode);
            }
        }
        if (chosen.isEmpty()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--modes takes dblbuf, clbuf, clbufrate");
        }
        return chosen;
    }

    private Map<String, Object> settings(long ceilingBytes, int streamCap, int rounds) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("ceilingBytes", ceilingBytes);
        json.put("videoBitsPerSecond", VIDEO_BITS);
        json.put("audioBitsPerSecond", AUDIO_BITS);
        json.put("maxStreams", streamCap);
        json.put("playRounds", rounds);
        json.put("quick", quick);
        return json;
    }
}
