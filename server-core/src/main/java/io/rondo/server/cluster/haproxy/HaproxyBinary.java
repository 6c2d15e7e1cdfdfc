package io.rondo.server.cluster.haproxy;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code haproxy} program, where installed: on the {@code PATH}, else Debian's {@code /usr/sbin/haproxy} (not
 * on an ordinary user's {@code PATH}). It checks a written configuration as HAProxy itself reads it.
 *
 * @param path the executable
 */
public record HaproxyBinary(Path path) {

    /** Where Debian's package installs it. */
    static final Path DEBIAN = Path.of("/usr/sbin/haproxy");

    /** The installed {@code haproxy}, or empty. */
    public static Optional<HaproxyBinary> find() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String folder : path.split(File.pathSeparator)) {
                if (!folder.isEmpty()) {
                    candidates.add(Path.of(folder, "haproxy"));
                }
            }
        }
        candidates.add(DEBIAN);
        return candidates.stream().filter(Files::isExecutable).findFirst().map(HaproxyBinary::new);
    }

    /**
     * What {@code haproxy -c -f config} says of a configuration.
     *
     * @param valid whether HAProxy accepts it (it exited with 0)
     * @param output what it printed, standard output and error together
     */
    public record Verdict(boolean valid, String output) {
    }

    /** Runs {@code haproxy -c -f config} and waits for its verdict. */
    public Verdict check(Path config) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(path.toString(), "-c", "-f", config.toString())
            .redirectErrorStream(true).start();
        String output;
        try (var in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        return new Verdict(process.waitFor() == 0, output);
    }
}
