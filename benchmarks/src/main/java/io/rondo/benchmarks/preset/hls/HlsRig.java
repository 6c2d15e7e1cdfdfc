package io.rondo.benchmarks.preset.hls;

import io.rondo.benchmarks.load.http.HttpConnection;
import io.rondo.benchmarks.rig.FileSet;
import io.rondo.benchmarks.rig.Folders;
import io.rondo.benchmarks.rig.RondoCheckout;
import io.rondo.server.launch.ServeProcess;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the hls preset serves: the clips as objects {@code /hls-I.mp4} and the greedy downloaders'
 * files in Rondo's library, ingested once and kept for the next run of the same files; and, for
 * nginx, a folder of the same objects' bytes as Rondo stores and serves them (the stored copy, the
 * one its playlists' byte ranges address) beside links to the same large files.
 */
final class HlsRig {

    private static final String DONE = "hls-ingested.txt";

    /**
     * The objects as each server's sessions open them, clip by clip.
     *
     * @param www the folder nginx serves
     * @param rondo Rondo's openings: the object's playlists
     * @param nginx nginx's: the byte ranges Rondo's playlist gave, of the same bytes in {@code www}
     */
    record Objects(Path www, List<HlsSession.Opening> rondo, List<HlsSession.Opening> nginx) {
    }

    private final Path work;
    private final PrintStream console;
    private Path data;

    HlsRig(Path work, PrintStream console) {
        this.work = work;
        this.console = console;
    }

    /** The object name of clip {@code index}. */
    static String objectName(int index) {
        return String.format(Locale.ROOT, "hls-%d.mp4", index);
    }

    /** Rondo's data folder with the clips (as {@code hls-I.mp4}) and {@code big} ingested, made if needed. */
    Path library(List<Path> clips, FileSet big) throws IOException {
        String stem = clips.get(0).getFileName().toString().replace(".mp4", "");
        data = work.resolve(String.format(Locale.ROOT, "rondo-%dx%s-%s", clips.size(), stem,
            big.folder().getFileName()));
        List<Path> files = new ArrayList<>();
        Path named = work.resolve("objects-" + data.getFileName());
        Files.createDirectories(named);
        for (int i = 0; i < clips.size(); i++) {
            Path link = named.resolve(objectName(i));
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, clips.get(i).toAbsolutePath());
            files.add(link);
        }
        files.addAll(big.paths());
        String identity = String.join("\n", clips.stream().map(clip -> clip.getFileName().toString()).toList())
            + "\n" + big.folder().getFileName();
        Path done = data.resolve(DONE);
        if (Files.isRegularFile(done) && Files.readString(done, StandardCharsets.UTF_8).equals(identity)) {
            return data;
        }
        Folders.deleteTree(data);
        Files.createDirectories(data);
        console.println("hls: ingesting " + clips.size() + " clips and " + big.count() + " large files into " + data);
        RondoCheckout.ingest(data, files, work.resolve("rondo-ingest.log"));
        Files.writeString(done, identity, StandardCharsets.UTF_8);
        return data;
    }

    /**
     * Reads each clip's media playlist from {@code rondo} once (the plan nginx's clients follow),
     * lays its stored copy out for nginx, and links the large files beside them.
     *
     * @throws IOException if Rondo does not serve a clip's playlists or its bytes, or refuses the session
     */
    Objects objects(ServeProcess rondo, int clips, FileSet big) throws IOException {
        Path www = work.resolve("www-" + data.getFileName());
        Files.createDirectories(www);
        List<HlsSession.Opening> rondoOpenings = new ArrayList<>();
        List<HlsSession.Opening> nginxOpenings = new ArrayList<>();
        try (HttpConnection connection = new HttpConnection(rondo.host(), rondo.httpPort())) {
            for (int i = 0; i < clips; i++) {
                String path = "/" + objectName(i);
                SessionLog plan = new SessionLog();
                Playlists.Media media;
                try {
                    media = HlsSession.playlists(path).open(connection, plan);
                } catch (IOException | IllegalArgumentException e) {
                    throw new IOException("Rondo does not serve " + path + " as HLS (is rondo.jar built with HLS?): "
                        + e.getMessage(), e);
                }
                if (media == null) {
                    throw new IOException("Rondo refused the session that reads " + path + "'s playlist: "
                        + plan.firstRefusal());
                }
                long length = storedCopy(connection, path, www.resolve(objectName(i)));
                Playlists.Part last = media.parts().get(media.parts().size() - 1);
                if (last.range().offset() + last.range().length() > length) {
                    throw new IOException("the playlist of " + path + " names bytes past its " + length + " bytes");
                }
                rondoOpenings.add(HlsSession.playlists(path));
                nginxOpenings.add(HlsSession.plan(media.at(path)));
            }
        }
        for (int i = 0; i < big.count(); i++) {
            Path link = www.resolve(big.names().get(i));
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, big.path(i).toAbsolutePath());
        }
        return new Objects(www, List.copyOf(rondoOpenings), List.copyOf(nginxOpenings));
    }

    /** {@code GET path} whole from Rondo into {@code file}: the bytes its playlists' ranges address. */
    private static long storedCopy(HttpConnection connection, String path, Path file) throws IOException {
        HttpConnection.Answer answer = connection.exchange(path, 0, -1, true);
        if (answer.status() != 200) {
            throw new IOException("GET " + path + " from Rondo answered " + answer.status());
        }
        Files.write(file, answer.body());
        return answer.length();
    }
}
