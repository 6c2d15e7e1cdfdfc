package io.rondo.systemtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.server.cli.RondoCommand;
import io.rondo.server.launch.ServeProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rondo ingest}, {@code ls}, {@code mv} and {@code rm} on a data folder that a running
 * {@code rondo serve} holds: they go through the server's admin API, found in the data folder,
 * instead of failing on the catalog's lock; and {@code rondo play} takes a name as {@code ls}
 * prints it, spaces included.
 */
class LibraryBesideServerTest {

    @TempDir
    Path temp;

    private StringWriter stdout;
    private StringWriter stderr;

    private int rondo(String... args) {
        stdout = new StringWriter();
        stderr = new StringWriter();
        return RondoCommand.execute(args, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    }

    private List<String> names(Path data) throws Exception {
        assertEquals(0, rondo("ls", "--data", data.toString(), "--json", "/holiday"), stderr.toString());
        List<String> names = new ArrayList<>();
        for (JsonNode object : new ObjectMapper().readTree(stdout.toString())) {
            names.add(object.get("name").asText());
        }
        return names;
    }

    @Test
    void libraryCommandsGoThroughTheServerThatHoldsTheLibrary() throws Exception {
        Path data = temp.resolve("data");
        Path folder = Files.createDirectories(temp.resolve("holiday").resolve("day one"));
        byte[] clip;
        try (InputStream in = getClass().getResourceAsStream("/io/rondo/content/demo/test-pattern.webm")) {
            clip = in.readAllBytes();
        }
        Files.write(folder.resolve("beach walk.webm"), clip);
        Files.writeString(temp.resolve("holiday").resolve("notes.txt"), "sunny");
        Files.writeString(temp.resolve("holiday").resolve(".hidden"), "not for the library");

        try (ServeProcess server = RondoServe.start(data, temp.resolve("serve.txt"))) {
            assertTrue(Files.exists(data.resolve("rondo/admin.url")), "serve says where its admin API is");

            assertEquals(0, rondo("ingest", "--data", data.toString(), temp.resolve("holiday") + "/"),
                stderr.toString());
            assertTrue(stdout.toString().contains("ingested /holiday/day one/beach walk.webm: continuous"),
                stdout.toString());
            assertTrue(stdout.toString().contains("ingested /holiday/notes.txt: discrete"), stdout.toString());
            assertFalse(stderr.toString().contains("open already"), stderr.toString());
            assertEquals(List.of("/holiday/day one/beach walk.webm", "/holiday/notes.txt"), names(data),
                "the folder, recursively, its hidden file left out");

            assertEquals(0, rondo("ls", "--data", data.toString(), "/holiday/day one"), stderr.toString());
            String listed = stdout.toString().strip();
            assertTrue(listed.startsWith("continuous") && listed.endsWith("/holiday/day one/beach walk.webm"),
                listed);

            Path played = temp.resolve("played.webm");
            assertEquals(0, rondo("play", "rondo://127.0.0.1:" + server.streamPort()
                + "/holiday/day one/beach walk.webm", "-o", played.toString(), "-q"), stderr.toString());
            assertEquals(Files.size(played), new ObjectMapper().readTree(lsJson(data)).get(0).get("size").asLong(),
                "the name as ls prints it plays the whole object");

            assertEquals(1, rondo("ingest", "--data", data.toString(), "--as", "/holiday/notes.txt",
                temp.resolve("holiday").resolve("notes.txt").toString()));
            assertTrue(stderr.toString().startsWith("rondo ingest: the server answered 409"), stderr.toString());

            assertEquals(0, rondo("mv", "--data", data.toString(), "/holiday/notes.txt", "/holiday/diary.txt"),
                stderr.toString());
            assertEquals("renamed /holiday/notes.txt to /holiday/diary.txt", stdout.toString().strip());
            assertEquals(0, rondo("rm", "--data", data.toString(), "/holiday/diary.txt"), stderr.toString());
            assertEquals("removed /holiday/diary.txt", stdout.toString().strip());
            assertEquals(List.of("/holiday/day one/beach walk.webm"), names(data));

            assertEquals(0, rondo("ls", "--data", data.toString(), "/"), stderr.toString());
            assertTrue(stdout.toString().contains("/holiday/ (1 object)"), stdout.toString());
        }

        assertFalse(Files.exists(data.resolve("rondo/admin.url")), "a clean stop removes the address");
        assertEquals(List.of("/holiday/day one/beach walk.webm"), names(data), "the catalog itself, once free");
    }

    private String lsJson(Path data) {
        assertEquals(0, rondo("ls", "--data", data.toString(), "--json", "/holiday/day one"), stderr.toString());
        return stdout.toString();
    }
}
