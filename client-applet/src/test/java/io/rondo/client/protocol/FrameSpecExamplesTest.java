package io.rondo.client.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The byte-level examples of docs/stream-protocol.md, kept here as constants: each must decode to
 * its documented frame, encode back to the same bytes, and match the page's hex block, so neither the
 * page nor the codec can change without the other.
 */
class FrameSpecExamplesTest {
    static final String OPEN_HEX = "52 01 01 00 00 00 00 25  00 00 00 06 fc 23 ac 00  00 00 00 00 00 26 25 a0"
            + "  00 00 00 00 00 80 00 00  00 0b 64 65 6d 6f 2f 61 2e 77 65 62 6d";
    static final String PAUSE_HEX = "52 01 02 00 00 00 00 00";
    static final String RESUME_HEX = "52 01 03 00 00 00 00 00";
    static final String SEEK_HEX = "52 01 04 00 00 00 00 08  00 00 00 16 3c 3e 5b 00";
    static final String CLOSE_HEX = "52 01 05 00 00 00 00 00";
    static final String REPORT_HEX = "52 01 06 00 00 00 00 18  00 00 00 00 ee 6b 28 00  00 00 00 00 00 1e 84 80"
            + "  00 00 00 00 00 bc 61 4e";
    static final String PUBLISH_HEX = "52 01 07 00 00 00 00 2e  00 00 00 00 00 3d 09 00  00 03 6d 70 34"
            + "  00 10 70 75 62 6c 69 73 68 2d 74 6f 6b 65 6e 2d 30 31  00 0d 63 61 6d 73 2f 64 6f 6f 72 2e 6d 70 34";
    static final String MEDIA_HEX = "52 01 08 00 00 00 00 08  00 00 00 68 6d 6f 6f 66";
    static final String ACCEPT_HEX = "52 01 81 00 00 00 00 2a  00 00 00 00 00 00 00 07  00 00 00 00 3b 9a ca 00"
            + "  00 00 00 00 00 3d 09 00  00 08 76 70 39 2c 6f 70 75 73  00 00 00 04 1a 45 df a3";
    static final String REJECT_HEX = "52 01 82 00 00 00 00 15  01  00 00 00 05  00 0e"
            + "  64 69 73 6b 20 32 20 69 73 20 66 75 6c 6c";
    static final String DATA_HEX = "52 01 83 01 00 00 00 26  00 00 00 00 00 00 00 03  00 00 00 00 00 00 00 21"
            + "  00 00 00 07 ae f4 0a 00  00 00 00 00 b2 d0 5e 00  1f 43 b6 75 01 02";
    static final String END_HEX = "52 01 84 00 00 00 00 00";
    static final String ERROR_HEX = "52 01 85 00 00 00 00 15  01 01  00 11"
            + "  64 69 73 6b 20 31 3a 20 49 2f 4f 20 65 72 72 6f 72";
    static final String DURABLE_HEX = "52 01 86 00 00 00 00 18  00 00 00 00 00 00 00 0c  00 00 00 02 cb 41 78 00"
            + "  00 00 00 00 00 5b 8d 80";
    static final String REDIRECT_HEX = "52 01 88 00 00 00 00 22  01  00 1f  72 6f 6e 64 6f 3a 2f 2f"
            + "  6e 6f 64 65 2d 62 3a 38 35 35 34 2f 64 65 6d 6f 2f 61 2e 77 65 62 6d";
    static final String LIVE_HEX = "52 01 87 00 00 00 00 10  00 00 00 16 1e 70 f6 00  00 00 00 15 e2 d6 2c 00";

    private static final Path SPEC = Path.of("..", "docs", "stream-protocol.md");

    static Map<FrameType, Example> examples() {
        Map<FrameType, Example> m = new EnumMap<>(FrameType.class);
        m.put(FrameType.OPEN, new Example(OPEN_HEX,
                new Open("demo/a.webm", 30_000_000_000L, new ClientProfile(2_500_000, 8_388_608))));
        m.put(FrameType.PAUSE, new Example(PAUSE_HEX, new Pause()));
        m.put(FrameType.RESUME, new Example(RESUME_HEX, new Resume()));
        m.put(FrameType.SEEK, new Example(SEEK_HEX, new Seek(95_500_000_000L)));
        m.put(FrameType.CLOSE, new Example(CLOSE_HEX, new Close()));
        m.put(FrameType.REPORT, new Example(REPORT_HEX, new Report(4_000_000_000L, 2_000_000, 12_345_678)));
        m.put(FrameType.PUBLISH, new Example(PUBLISH_HEX,
                new Publish("cams/door.mp4", Publish.MP4, 4_000_000, "publish-token-01")));
        m.put(FrameType.MEDIA, new Example(MEDIA_HEX,
                new Media(ByteBuffer.wrap(Frames.hex("00 00 00 68 6d 6f 6f 66")))));
        m.put(FrameType.ACCEPT, new Example(ACCEPT_HEX, new Accept(7, 1_000_000_000L, 4_000_000, "vp9,opus",
                ByteBuffer.wrap(Frames.hex("1a 45 df a3")))));
        m.put(FrameType.REJECT, new Example(REJECT_HEX, new Reject(RejectReason.DISK_TIME, 5, "disk 2 is full")));
        m.put(FrameType.DATA, new Example(DATA_HEX, new Data(3, 33, 33_000_000_000L, 3_000_000_000L, true,
                ByteBuffer.wrap(Frames.hex("1f 43 b6 75 01 02")))));
        m.put(FrameType.END, new Example(END_HEX, new End()));
        m.put(FrameType.ERROR, new Example(ERROR_HEX, new ErrorFrame(ErrorCode.READ_FAILED, "disk 1: I/O error")));
        m.put(FrameType.DURABLE, new Example(DURABLE_HEX, new Durable(12, 12_000_000_000L, 6_000_000)));
        m.put(FrameType.LIVE, new Example(LIVE_HEX, new Live(95_000_000_000L, 94_000_000_000L, false)));
        m.put(FrameType.REDIRECT, new Example(REDIRECT_HEX,
                new Redirect(RedirectReason.NOT_HERE, "rondo://node-b:8554/demo/a.webm")));
        return m;
    }

    @Test
    void everyExampleDecodesToItsDocumentedFrameAndEncodesBack() throws ProtocolException {
        Map<FrameType, Example> examples = examples();
        assertEquals(FrameType.values().length, examples.size());
        for (Map.Entry<FrameType, Example> e : examples.entrySet()) {
            ByteBuffer wire = ByteBuffer.wrap(Frames.hex(e.getValue().hex()));
            Frame decoded = FrameCodec.decode(wire);
            assertEquals(e.getKey(), decoded.type());
            assertEquals(e.getValue().frame(), decoded, e.getKey().toString());
            assertEquals(Frames.toHex(wire), Frames.toHex(FrameCodec.encode(e.getValue().frame())),
                    e.getKey().toString());
        }
    }

    @Test
    void theSpecShowsTheseExamplesForEveryFrameType() throws IOException, ProtocolException {
        Map<FrameType, String> documented = hexBlocksOf(Files.readString(SPEC, StandardCharsets.UTF_8));
        Map<FrameType, Example> examples = examples();
        assertEquals(examples.keySet(), documented.keySet(), "frame types with a hex example in " + SPEC);
        for (FrameType type : FrameType.values()) {
            String docHex = documented.get(type);
            assertEquals(Frames.toHex(ByteBuffer.wrap(Frames.hex(examples.get(type).hex()))), docHex,
                    "the " + type + " example in " + SPEC + " differs from the test's constant");
            assertEquals(examples.get(type).frame(), FrameCodec.decode(ByteBuffer.wrap(Frames.hex(docHex))));
        }
    }

    @Test
    void theSpecStatesTheLimitsTheCodeUses() throws IOException {
        String spec = Files.readString(SPEC, StandardCharsets.UTF_8);
        assertTrue(spec.contains(String.format("%,d", FrameCodec.MAX_PAYLOAD_LENGTH)), "maximum payload");
        for (ErrorCode c : ErrorCode.values()) {
            assertTrue(spec.contains(String.format("| `0x%04x` | %s |", c.code(), c.name())), c.name());
        }
        for (RejectReason r : RejectReason.values()) {
            assertTrue(spec.contains(String.format("| %d | %s |", r.code(), r.name())), r.name());
        }
        for (FrameType t : FrameType.values()) {
            assertTrue(spec.contains(String.format("| `0x%02x` | %s |", t.code(), t.name())), t.name());
        }
    }

    /** Each "### TYPE" heading's ```hex block, as bare hex: the bytes left of each line's '|'. */
    static Map<FrameType, String> hexBlocksOf(String markdown) {
        Map<FrameType, String> blocks = new EnumMap<>(FrameType.class);
        String heading = null;
        StringBuilder hex = null;
        for (String line : markdown.split("\n")) {
            if (hex != null) {
                if (line.startsWith("```")) {
                    blocks.put(FrameType.valueOf(heading), hex.toString());
                    hex = null;
                    continue;
                }
                int bar = line.indexOf('|');
                String bytes = (bar < 0 ? line : line.substring(0, bar)).trim();
                if (!bytes.matches("([0-9a-f]{2}( +|$))*")) {
                    throw new AssertionError("not hex bytes in the " + heading + " example: " + line);
                }
                hex.append(bytes.replaceAll("\\s+", ""));
            } else if (line.startsWith("#")) {
                heading = line.startsWith("### ") ? line.substring(4).trim() : null;
            } else if (line.trim().equals("```hex")) {
                if (heading == null) {
                    throw new AssertionError("a hex block outside a \"### TYPE\" section");
                }
                hex = new StringBuilder();
            }
        }
        return blocks;
    }

    record Example(String hex, Frame frame) {
    }
}
