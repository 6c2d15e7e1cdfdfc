package io.rondo.benchmarks.preset.clientbuffers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.benchmarks.rig.Ffmpeg;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client-buffers preset's smoke run, as .ci/run makes it: real servers, real clients, real ffmpeg. */
class ClientBuffersPresetTest {

    @TempDir
    Path dir;

    /**
     * Under the quick run's 4 MiB ceiling, 256 KiB fragments of 2 Mbit/s video: double buffers run
     * out after a few streams, for buffer memory; ClBufRate admits more, and no admitted stream of
     * any mode has a late fragment.
     */
    @Test
    void theQuickRunAdmitsMoreStreamsWithClientBuffersAndNoneIsLate() throws IOException {
        Ffmpeg.assumeInstalled("the client-buffers preset's smoke run");
        Path out = dir.resolve("out");

        int exit = new CommandLine(new ClientBuffersPreset()).execute("--quick", "--out", out.toString(), "--work",
            dir.resolve("work").toString());

        assertEquals(0, exit);
        JsonNode json = new ObjectMapper().readTree(out.resolve("client-buffers.json").toFile());
        Map<String, JsonNode> byMode = new HashMap<>();
        json.get("points").forEach(point -> byMode.put(point.get("mode").asText(), point));
        assertEquals(3, byMode.size(), json.toString());
        assertEquals("buffer-memory", byMode.get("dblbuf").get("stoppedBy").asText(), json.toString());
        assertTrue(byMode.get("clbufrate").get("admitted").asInt() > byMode.get("dblbuf").get("admitted").asInt(),
            json.toString());
        for (JsonNode point : byMode.values()) {
            assertEquals(0, point.get("late").asLong(), point.toString());
            assertEquals(0, point.get("endedOrFailed").asLong(), point.toString());
            assertTrue(point.get("answers").asInt() > point.get("admitted").asInt(), "the refusal was answered too");
        }
        assertTrue(Files.readString(out.resolve("client-buffers.md")).contains("| emulated | video | 256 KiB |"));
        assertNotNull(ImageIO.read(out.resolve("client-buffers-emulated-video.png").toFile()), "a PNG");
    }
}
