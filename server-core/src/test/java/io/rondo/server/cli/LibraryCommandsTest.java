package io.rondo.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.scheduler.time.SystemClocks;
import io.rondo.server.admin.AdminUrlFile;
import io.rondo.server.config.RondoConfig;
import io.rondo.server.content.Library;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rondo ingest}, {@code ls}, {@code mv}, {@code rm} and {@code demo} as a user runs them. */
class LibraryCommandsTest {

    @TempDir
    Path temp;

    private StringWriter stdout = new StringWriter();
    private StringWriter stderr = new StringWriter();

    private int rondo(String... args) {
        stdout = new StringWriter();
        stderr = new StringWriter();
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    private Path demoFile(String name) throws IOException {
        Path file = temp.resolve(name);
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/" + name)) {
            Files.copy(in, file);
        }
        return file;
    }

    /** The issue's own check: ingest a WebM and a fragmented MP4, then ls --json shows duration and fragments. */
    @Test
    void ingestedClipsAreListedWithDurationAndFragments() throws Exception {
        Path data = temp.resolve("d");
        assertEquals(0, rondo("ingest", "--data", data.toString(), "-q", demoFile("test-pattern.webm").toString(),
            demoFile("color-bars.mp4").toString()), stderr.toString());
        assertTrue(stdout.toString().contains("ingested /test-pattern.webm: continuous"), stdout.toString());

        assertEquals(0, rondo("ls", "--data", data.toString(), "--json"), stderr.toString());
        JsonNode objects = new ObjectMapper().readTree(stdout.toString());
        assertEquals(2, objects.size());
        for (JsonNode object : objects) {
            assertEquals("continuous", object.get("kind").asText(), object.toString());
            assertEquals(6.0, object.get("duration_s").asDouble(), 0.1, object.toString());
            assertTrue(object.get("fragments").asInt() >= 5, "one-second fragments: " + object);
            assertTrue(object.get("size").asLong() > 10_000, object.toString());
        }
        assertEquals("/color-bars.mp4", objects.get(0).get("name").asText(), "in name order");
        assertTrue(objects.get(0).get("codecs").asText().startsWith("avc1."), objects.get(0).toString());
    }

    /** A bit rate is decimal, as link rates are: 2M is two million bits a second, not 2 Mi. */
    @Test
    void aDeclaredBitRateIsInPowersOf1000() throws Exception {
        Path data = temp.resolve("rate");
        Path stream = Files.write(temp.resolve("capture.ts"), new byte[500_000]);
        assertEquals(0, rondo("ingest", "--data", data.toString(), "-q", "--bitrate", "2M", stream.toString()),
            stderr.toString());

        assertEquals(0, rondo("ls", "--data", data.toString(), "--json"), stderr.toString());
        JsonNode object = new ObjectMapper().readTree(stdout.toString()).get(0);
        assertEquals("continuous", object.get("kind").asText(), object.toString());
        assertEquals(2_000_000, object.get("average_bitrate").asDouble(), 20_000, object.toString());

        assertEquals(2, rondo("ingest", "--data", data.toString(), "-q", "--bitrate", "unlimited", "--as", "/x.ts",
            stream.toString()));
        assertTrue(stderr.toString().contains("--bitrate must be a rate in bits a second"), stderr.toString());
    }

    @Test
    void theDemoLibraryGoesIntoAnEmptyLibraryOnlyAndLsShowsItsFolders() {
        Path data = temp.resolve("demo");
        assertEquals(0, rondo("demo", "--data", data.toString()), stderr.toString());
        assertEquals(5, stdout.toString().lines().filter(line -> line.startsWith("ingested ")).count(),
            stdout.toString());

        assertEquals(0, rondo("demo", "--data", data.toString()));
        assertTrue(stdout.toString().contains("only into an empty one"), stdout.toString());

        assertEquals(0, rondo("ls", "--data", data.toString()));
        String listing = stdout.toString();
        assertTrue(listing.contains("/videos/") && listing.contains("(2 objects)"), listing);
        assertTrue(listing.contains("/index.html"), listing);
        assertEquals(0, rondo("ls", "--data", data.toString(), "/videos"));
        assertTrue(stdout.toString().contains("/videos/test-pattern.webm"), stdout.toString());
    }

    @Test
    void renameAndRemoveChangeWhatIsListed() throws Exception {
        Path data = temp.resolve("d");
        Path text = Files.writeString(temp.resolve("notes.txt"), "some notes");
        assertEquals(0, rondo("ingest", "--data", data.toString(), "--as", "/docs/notes.txt", text.toString()));

        assertEquals(0, rondo("mv", "--data", data.toString(), "/docs/notes.txt", "/archive/notes.txt"));
        assertEquals(0, rondo("ls", "--data", data.toString(), "--json"));
        assertTrue(stdout.toString().contains("/archive/notes.txt"), stdout.toString());
        assertEquals(0, rondo("rm", "--data", data.toString(), "/archive/notes.txt"));
        assertEquals(0, rondo("ls", "--data", data.toString()));
        assertTrue(stdout.toString().contains("the library is empty"), stdout.toString());
    }

    @Test
    void refusalsSayWhatIsWrongAndNeverShowAStackTrace() throws Exception {
        Path data = temp.resolve("d");
        Path garbage = Files.write(temp.resolve("broken.webm"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        Path text = Files.writeString(temp.resolve("a.txt"), "a");

        assertEquals(1, rondo("ingest", "--data", data.toString(), garbage.toString(), text.toString()));
        assertTrue(stderr.toString().contains("not a WebM"), stderr.toString());
        assertTrue(stdout.toString().contains("ingested /a.txt"), "the good file still goes in: " + stdout);
        assertEquals(1, rondo("ingest", "--data", data.toString(), text.toString()));
        assertTrue(stderr.toString().contains("already exists"), stderr.toString());
        assertTrue(stderr.toString().startsWith("rondo ingest: "), stderr.toString());
        assertEquals(2, rondo("ingest", "--data", data.toString(), "--kind", "movie", text.toString()));
        assertTrue(stderr.toString().startsWith("rondo ingest: --kind must be discrete or continuous"),
            "every error starts with the command, as rondo names it: " + stderr);
        assertEquals(2, rondo("rm", "--data", data.toString(), "/nothing.txt"));
        assertTrue(stderr.toString().startsWith("rondo rm: no object is named /nothing.txt"), stderr.toString());
        assertFalse(stderr.toString().contains("\tat "), stderr.toString());
    }

    @Test
    void lsLinesUpItsColumnsWhateverTheirWidths() throws Exception {
        Path data = temp.resolve("d");
        Path text = Files.writeString(temp.resolve("a.txt"), "a");
        Path sheet = Files.write(temp.resolve("budget.xlsx"), new byte[3_000_000]);
        assertEquals(0, rondo("ingest", "--data", data.toString(), "-q", text.toString(), sheet.toString(),
            demoFile("color-bars.mp4").toString(), demoFile("test-pattern.webm").toString()), stderr.toString());
        assertEquals(0, rondo("ingest", "--data", data.toString(), "--as", "/docs/b.txt", text.toString()));

        assertEquals(0, rondo("ls", "--data", data.toString()), stderr.toString());
        List<String> lines = stdout.toString().lines().toList();
        assertEquals(5, lines.size(), stdout.toString());
        List<String> names = List.of("/docs/ (1 object)", "/a.txt", "/budget.xlsx", "/color-bars.mp4",
            "/test-pattern.webm");
        int nameColumn = lines.get(0).indexOf(names.get(0));
        int sizeEnd = lines.get(0).indexOf(" B ") + 2;
        for (int i = 0; i < lines.size(); i++) {
            assertEquals(nameColumn, lines.get(i).indexOf(names.get(i)), "names line up:\n" + stdout);
            assertEquals(nameColumn + names.get(i).length(), lines.get(i).length(), "the name ends the line");
            assertEquals(' ', lines.get(i).charAt(sizeEnd), "sizes end in one column:\n" + stdout);
            assertTrue(Character.isLetter(lines.get(i).charAt(sizeEnd - 1)), "sizes end in one column:\n" + stdout);
        }
    }

    @Test
    void lsTakesItsFolderOptionally() {
        assertEquals(0, rondo("ls", "--help"));
        assertTrue(stdout.toString().contains("[FOLDER]"), stdout.toString());
    }

    @Test
    void aFolderIsIngestedWholeKeepingItsPathsUnderOneProgressBar() throws Exception {
        Path data = temp.resolve("d");
        Path folder = Files.createDirectories(temp.resolve("talks").resolve("2026"));
        Files.writeString(folder.resolve("slides one.txt"), "one");
        Files.writeString(temp.resolve("talks").resolve("index.txt"), "index");
        Files.write(folder.resolve("recording.bin"), new byte[10 << 20]);
        Files.write(temp.resolve("talks").resolve("backup.bin"), new byte[10 << 20]);
        Files.createDirectories(temp.resolve("talks").resolve(".git"));
        Files.writeString(temp.resolve("talks").resolve(".git").resolve("HEAD"), "ref");

        ByteArrayOutputStream bars = new ByteArrayOutputStream();
        PrintStream standardError = System.err;
        System.setErr(new PrintStream(bars, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, rondo("ingest", "--data", data.toString(), temp.resolve("talks") + "/"),
                stderr.toString());
        } finally {
            System.setErr(standardError);
        }
        assertEquals(List.of("ingested /talks/2026/recording.bin", "ingested /talks/2026/slides one.txt",
                "ingested /talks/backup.bin", "ingested /talks/index.txt"),
            stdout.toString().lines().filter(line -> line.startsWith("ingested "))
                .map(line -> line.substring(0, line.indexOf(':'))).toList(), "hidden files are left out");
        String printed = bars.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("recording.bin") || printed.contains("backup.bin"), "no bar per file: " + printed);
        List<String> barLines = printed.lines().filter(line -> line.startsWith("ingesting 4 files")).toList();
        assertFalse(barLines.isEmpty(), "20 MiB show one bar for the folder: " + printed);
        assertTrue(barLines.size() <= 3, "off a terminal, a line at most every 5 s, and the last: " + printed);
        assertFalse(printed.contains("\r"), "nothing redrawn in place in a log: " + printed);
        assertTrue(barLines.get(barLines.size() - 1).contains("20/20"), barLines.toString());

        Path empty = Files.createDirectories(temp.resolve("empty"));
        assertEquals(2, rondo("ingest", "--data", data.toString(), empty.toString()));
        assertEquals("rondo ingest: " + empty + " holds no file to ingest (hidden files are left out)",
            stderr.toString().strip());
        assertEquals(0, rondo("ingest", "--data", data.toString(), "--as", "/archive/", temp.resolve("talks")
            .toString()), stderr.toString());
        assertTrue(stdout.toString().contains("ingested /archive/2026/slides one.txt"), stdout.toString());
        assertTrue(stdout.toString().contains("ingested /archive/index.txt"), stdout.toString());

        Path library = temp.resolve("talks").resolve("library");
        assertEquals(0, rondo("ingest", "--data", library.toString(), "-q", "--as", "/archive/",
            temp.resolve("talks").toString()), stderr.toString());
        assertEquals(0, rondo("ingest", "--data", library.toString(), "-q", "--as", "/again/",
            temp.resolve("talks").toString()), stderr.toString());
        assertFalse(stdout.toString().contains("/again/library/"), "a folder that holds the library leaves it "
            + "out: " + stdout);
    }

    @Test
    void aCatalogHeldByAnotherProcessIsNamedAndSoIsAServerThatNoLongerAnswers() throws Exception {
        Path data = temp.resolve("d");
        try (Library held = Library.open(RondoConfig.defaults(), data, SystemClocks.utc())) {
            assertEquals(1, rondo("ls", "--data", data.toString()));
            assertTrue(stderr.toString().startsWith("rondo ls: the catalog in ") && stderr.toString()
                .contains("is open already"), stderr.toString());

            int closedPort;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                closedPort = socket.getLocalPort();
            }
            Files.writeString(data.resolve("rondo/admin.token"), "a-token");
            AdminUrlFile.write(held.dataFolder(), "http://127.0.0.1:" + closedPort);
            assertEquals(1, rondo("rm", "--data", data.toString(), "/a.txt"));
            assertTrue(stderr.toString().contains("is open already"), stderr.toString());
            assertTrue(stderr.toString().contains("the server " + data.toAbsolutePath().resolve("rondo/admin.url")
                + " names, http://127.0.0.1:" + closedPort + ", does not answer"), stderr.toString());
        }
    }

    @Test
    void thePlayersFolderIsRondosOwn() throws Exception {
        Path data = temp.resolve("d");
        Path text = Files.writeString(temp.resolve("a.txt"), "a");

        assertEquals(2, rondo("ingest", "--data", data.toString(), "--as", "/player/a.txt", text.toString()));
        assertTrue(stderr.toString().contains("/player/ holds Rondo's bundled player"), stderr.toString());
        assertEquals(0, rondo("ingest", "--data", data.toString(), text.toString()));
        assertEquals(2, rondo("mv", "--data", data.toString(), "/a.txt", "/player/index.html"));
        assertTrue(stderr.toString().contains("choose another name than /player/index.html"), stderr.toString());
    }

    @Test
    void aMistypedOptionIsOneLineAndAPointerToTheHelp() {
        assertEquals(2, rondo("ls", "--colour"));
        assertEquals("rondo ls: Unknown option: '--colour'\nTry 'rondo ls --help' for what it takes.\n",
            stderr.toString().replace(System.lineSeparator(), "\n"));
    }
}
