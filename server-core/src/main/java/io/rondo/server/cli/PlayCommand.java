package io.rondo.server.cli;

import io.rondo.client.StreamClient;
import io.rondo.client.StreamRejectedException;
import io.rondo.client.protocol.Accept;
import io.rondo.client.protocol.ClientProfile;
import io.rondo.client.protocol.Data;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code rondo play}: receives a stream over the stream protocol and writes the media (init
 * segment, then every fragment in order) to a file or to standard output, for any decoder that
 * reads a pipe (papers/000 Section 2's client proxy).
 */
@Command(name = "play",
    description = {"Receive a stream and write its media to a file, or with -o - to standard output: "
        + "rondo play rondo://127.0.0.1:8554/videos/clip.webm -o - | ffplay -"},
    mixinStandardHelpOptions = true)
final class PlayCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "rondo://HOST:PORT/NAME")
    private String url;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true,
        description = "Where the media goes; - for standard output.")
    private String output;

    @Option(names = "--start", paramLabel = "SECONDS", defaultValue = "0",
        description = "Start this far into the media (default: ${DEFAULT-VALUE}).")
    private double startSeconds;

    @Option(names = "--max-rate", paramLabel = "BYTES", defaultValue = "16M",
        description = "The most bytes per second this client takes (default: ${DEFAULT-VALUE}).")
    private String maxRate;

    @Option(names = {"-q", "--quiet"}, description = "No progress line on standard error.")
    private boolean quiet;

    @Override
    public Integer call() throws IOException {
        URI target = parse(url);
        long rate = io.rondo.server.config.ByteSizes.parse(maxRate, "--max-rate");
        PrintWriter err = spec.commandLine().getErr();
        boolean toStdout = output.equals("-");
        try (StreamClient client = StreamClient.connect(target.getHost(), target.getPort())) {
            Accept accept;
            try {
                accept = client.open(target.getPath(), (long) (startSeconds * 1e9), new ClientProfile(rate, 8L << 20));
            } catch (StreamRejectedException e) {
                err.println("rondo play: the server refused the stream: " + e.getMessage());
                return 3;
            }
            try (OutputStream out = toStdout ? new BufferedOutputStream(System.out)
                : new BufferedOutputStream(Files.newOutputStream(Path.of(output)))) {
                WritableByteChannel sink = Channels.newChannel(out);
                write(sink, accept.initSegment());
                long fragments = 0;
                long bytes = accept.initSegment().remaining();
                for (Data data = client.nextData(); data != null; data = client.nextData()) {
                    bytes += data.payload().remaining();
                    write(sink, data.payload());
                    fragments++;
                    if (!quiet) {
                        err.printf(Locale.ROOT, "\rrondo play: %.1f s, %d fragments, %d bytes",
                            data.presentationNs() / 1e9, fragments, bytes);
                        err.flush();
                    }
                }
                out.flush();
                if (!quiet) {
                    err.printf(Locale.ROOT, "%nrondo play: the stream ended: %d fragments, %d bytes%n", fragments,
                        bytes);
                }
            }
            return 0;
        }
    }

    private static void write(WritableByteChannel sink, ByteBuffer bytes) throws IOException {
        ByteBuffer view = bytes.duplicate();
        while (view.hasRemaining()) {
            sink.write(view);
        }
    }

    private static URI parse(String text) {
        try {
            URI uri = new URI(text);
            if (!"rondo".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0
                || uri.getPath() == null || uri.getPath().length() < 2) {
                throw new URISyntaxException(text, "expected rondo://HOST:PORT/NAME");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the URL must be rondo://HOST:PORT/NAME, was '" + text + "'");
        }
    }
}
