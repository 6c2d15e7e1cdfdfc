package io.rondo.client.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FrameDecoderTest {
    private static final List<Frame> FRAMES = Frames.all();
    private static final byte[] WIRE = Frames.concat(FRAMES);

    @Test
    void decodesAllFramesFromOneChunk() throws ProtocolException {
        FrameDecoder decoder = new FrameDecoder();
        ByteBuffer chunk = ByteBuffer.wrap(WIRE);
        assertEquals(FRAMES, decoder.feed(chunk));
        assertFalse(chunk.hasRemaining());
        assertFalse(decoder.inFrame());
        decoder.finish();
        assertEquals(0, decoder.largestAllocation(), "whole frames in one chunk are decoded in place");
    }

    @Test
    void decodesTheSameFramesFedByteByByte() throws ProtocolException {
        FrameDecoder decoder = new FrameDecoder();
        List<Frame> out = new ArrayList<>();
        for (byte b : WIRE) {
            out.addAll(decoder.feed(ByteBuffer.wrap(new byte[] {b})));
        }
        decoder.finish();
        assertEquals(FRAMES, out);
    }

    @Test
    void decodesTheSameFramesInRandomChunkings() throws ProtocolException {
        Random random = new Random(42);
        for (int run = 0; run < 200; run++) {
            FrameDecoder decoder = new FrameDecoder();
            List<Frame> out = new ArrayList<>();
            int maxChunk = 1 + random.nextInt(run % 2 == 0 ? 64 : 100_000);
            for (int i = 0; i < WIRE.length; ) {
                int n = Math.min(WIRE.length - i, 1 + random.nextInt(maxChunk));
                // A fresh array per chunk, as a client that hands out slices must use.
                out.addAll(decoder.feed(ByteBuffer.wrap(Arrays.copyOfRange(WIRE, i, i + n))));
                i += n;
            }
            decoder.finish();
            assertEquals(FRAMES, out, "run " + run);
        }
    }

    @Test
    void nextStopsAtEachFrameEnd() throws ProtocolException {
        FrameDecoder decoder = new FrameDecoder();
        ByteBuffer chunk = ByteBuffer.wrap(Frames.concat(List.of(new Pause(), new Seek(3))));
        assertEquals(new Pause(), decoder.next(chunk));
        assertEquals(8, chunk.position());
        assertEquals(new Seek(3), decoder.next(chunk));
        assertNull(decoder.next(chunk));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "HTTP on the stream port;47 45 54 20 2f 20 48 54;MALFORMED_FRAME;bad magic 0x47 ('G')",
        "bad magic;00 01 02 00 00 00 00 00;MALFORMED_FRAME;bad magic 0x00",
        "unknown version;52 02 02 00 00 00 00 00;UNSUPPORTED_VERSION;protocol version 2 is not supported",
        "version 0;52 00 02 00 00 00 00 00;UNSUPPORTED_VERSION;protocol version 0",
        "unknown type;52 01 09 00 00 00 00 00;UNKNOWN_FRAME_TYPE;frame type 0x09 is not defined",
        "unknown server type;52 01 89 00 00 00 00 00;UNKNOWN_FRAME_TYPE;frame type 0x89 is not defined",
        "reserved flag;52 01 02 04 00 00 00 00;MALFORMED_FRAME;PAUSE frame sets reserved flag bits 0x04",
        "reserved DATA flag;52 01 83 03;MALFORMED_FRAME;DATA frame sets reserved flag bits 0x02",
        "reserved OPEN flag;52 01 01 06;MALFORMED_FRAME;OPEN frame sets reserved flag bits 0x04",
        "reserved REDIRECT flag;52 01 88 01;MALFORMED_FRAME;REDIRECT frame sets reserved flag bits 0x01",
        "unknown redirect reason;52 01 88 00 00 00 00 0a 03 00 07 77 73 3a 2f 2f 68 2f;MALFORMED_FRAME;"
                + "reason 3 is not a redirect reason",
        "redirect to no URL;52 01 88 00 00 00 00 07 01 00 04 6e 6f 64 65;MALFORMED_FRAME;target 'node' is not",
        "redirect to HTTP;52 01 88 00 00 00 00 0d 02 00 0a 68 74 74 70 3a 2f 2f 68 2f 61;MALFORMED_FRAME;"
                + "target 'http://h/a' is not",
        "redirect without its target;52 01 88 00 00 00 00 01 01;MALFORMED_FRAME;target length needs 2 bytes",
        "reserved SEEK flag;52 01 04 81;MALFORMED_FRAME;SEEK frame sets reserved flag bits 0x80",
        "reserved ACCEPT flag;52 01 81 03;MALFORMED_FRAME;ACCEPT frame sets reserved flag bits 0x02",
        "reserved LIVE flag;52 01 87 02;MALFORMED_FRAME;LIVE frame sets reserved flag bits 0x02",
        "FROM_LIVE on RESUME;52 01 03 01;MALFORMED_FRAME;RESUME frame sets reserved flag bits 0x01",
        "length past the maximum;52 01 83 00 01 00 00 01;FRAME_TOO_LARGE;16777217-byte payload",
        "length 4 GiB;52 01 83 00 ff ff ff ff;FRAME_TOO_LARGE;4294967295-byte payload",
        "string past the payload;52 01 85 00 00 00 00 06 00 01 00 09 41 42;MALFORMED_FRAME;"
                + "message needs 9 bytes but only 2 are left",
        "field past the payload;52 01 04 00 00 00 00 04 00 00 00 01;MALFORMED_FRAME;positionNs needs 8 bytes",
        "init segment past the payload;52 01 81 00 00 00 00 1e 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 01"
                + " 00 00 00 00 00 00 00 01 00 00 7f ff ff ff;MALFORMED_FRAME;initSegment needs 2147483647 bytes",
        "negative seek;52 01 04 00 00 00 00 08 ff ff ff ff ff ff ff ff;MALFORMED_FRAME;positionNs is -1",
        "negative count;52 01 06 00 00 00 00 18 00 00 00 00 00 00 00 00 80 00 00 00 00 00 00 00"
                + " 00 00 00 00 00 00 00 00;MALFORMED_FRAME;bufferedBytes is -9223372036854775808",
        "negative retry-after;52 01 82 00 00 00 00 07 01 ff ff ff fe 00 00;MALFORMED_FRAME;retryAfterSeconds is -2",
        "negative sequence;52 01 83 00 00 00 00 20 ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00"
                + " 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00;MALFORMED_FRAME;sequence is -1",
        "zero fragment duration;52 01 81 00 00 00 00 1e 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00"
                + " 00 00 00 00 00 00 00 01 00 00 00 00 00 00;MALFORMED_FRAME;fragmentDurationNs is 0",
        "trailing bytes;52 01 02 00 00 00 00 02 00 00;MALFORMED_FRAME;2 trailing bytes",
        "trailing bytes after a string;52 01 85 00 00 00 00 06 00 01 00 01 41 42;MALFORMED_FRAME;1 trailing bytes",
        "unknown reject reason;52 01 82 00 00 00 00 07 63 00 00 00 00 00 00;MALFORMED_FRAME;reason 99",
        "invalid UTF-8;52 01 85 00 00 00 00 06 00 01 00 02 c3 28;MALFORMED_FRAME;message is not valid UTF-8",
        "empty object name;52 01 01 00 00 00 00 1a 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01"
                + " 00 00 00 00 00 00 00 01 00 00;MALFORMED_FRAME;objectName is empty",
        "zero receive rate;52 01 01 00 00 00 00 1b 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
                + " 00 00 00 00 00 00 00 01 00 01 61;MALFORMED_FRAME;maxReceiveBytesPerSecond is 0",
        "empty MEDIA;52 01 08 00 00 00 00 00;MALFORMED_FRAME;MEDIA carries no bytes",
        "reserved MEDIA flag;52 01 08 01;MALFORMED_FRAME;MEDIA frame sets reserved flag bits 0x01",
        "zero peak rate;52 01 07 00 00 00 00 0f 00 00 00 00 00 00 00 00 00 00 00 00 00 01 61;MALFORMED_FRAME;"
                + "peakBitsPerSecond is 0",
        "negative peak rate;52 01 07 00 00 00 00 0f ff ff ff ff ff ff ff ff 00 00 00 00 00 01 61;MALFORMED_FRAME;"
                + "peakBitsPerSecond is -1",
        "PUBLISH of no name;52 01 07 00 00 00 00 0e 00 00 00 00 00 00 00 01 00 00 00 00 00 00;MALFORMED_FRAME;"
                + "objectName is empty",
        "PUBLISH without its name;52 01 07 00 00 00 00 0c 00 00 00 00 00 00 00 01 00 00 00 00;MALFORMED_FRAME;"
                + "objectName length needs 2 bytes",
        "token not UTF-8;52 01 07 00 00 00 00 11 00 00 00 00 00 00 00 01 00 00 00 02 c3 28 00 01 61;MALFORMED_FRAME;"
                + "token is not valid UTF-8",
        "trailing bytes after PUBLISH;52 01 07 00 00 00 00 10 00 00 00 00 00 00 00 01 00 00 00 00 00 01 61 00;"
                + "MALFORMED_FRAME;1 trailing bytes",
        "negative durable time;52 01 86 00 00 00 00 18 00 00 00 00 00 00 00 01 ff ff ff ff ff ff ff ff"
                + " 00 00 00 00 00 00 00 00;MALFORMED_FRAME;durableNs is -1",
        "DURABLE cut short;52 01 86 00 00 00 00 10 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 01;"
                + "MALFORMED_FRAME;bytesReceived needs 8 bytes",
        "LIVE durable past recorded;52 01 87 00 00 00 00 10 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 02;"
                + "MALFORMED_FRAME;durableNs 2 is past recordedNs 1",
        "negative live edge;52 01 87 01 00 00 00 10 ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00;"
                + "MALFORMED_FRAME;recordedNs is -1",
        "LIVE cut short;52 01 87 00 00 00 00 08 00 00 00 00 00 00 00 01;MALFORMED_FRAME;durableNs needs 8 bytes",
    })
    void malformedInputRaisesAProtocolExceptionThatSaysWhatWasWrong(String name, String hex, ErrorCode code,
                                                                   String message) {
        byte[] bytes = Frames.hex(hex);
        for (int chunk : new int[] {bytes.length, 1}) {
            FrameDecoder decoder = new FrameDecoder();
            ProtocolException e = assertThrows(ProtocolException.class, () -> {
                for (int i = 0; i < bytes.length; i += chunk) {
                    decoder.feed(ByteBuffer.wrap(bytes, i, Math.min(chunk, bytes.length - i)));
                }
            }, name);
            assertEquals(code, e.code(), name);
            assertTrue(e.getMessage().contains(message), name + ": " + e.getMessage());
            assertTrue(decoder.largestAllocation() <= bytes.length, name + " allocated " + decoder.largestAllocation());
        }
    }

    @Test
    void aFrameCutShortByTheEndOfTheStreamIsTruncated() throws ProtocolException {
        byte[] data = FrameCodec.encode(new Data(0, 0, 0, 0, false, Frames.bytes(32, 0))).array();
        FrameDecoder decoder = new FrameDecoder();
        assertNull(decoder.next(ByteBuffer.wrap(data, 0, 52)));
        assertTrue(decoder.inFrame());
        ProtocolException e = assertThrows(ProtocolException.class, decoder::finish);
        assertEquals(ErrorCode.TRUNCATED_FRAME, e.code());
        assertEquals("the connection ended inside a DATA frame, after 52 of its 72 bytes", e.getMessage());

        FrameDecoder inHeader = new FrameDecoder();
        inHeader.feed(ByteBuffer.wrap(data, 0, 3));
        assertEquals("the connection ended inside a frame header, after 3 of its 8 bytes",
                assertThrows(ProtocolException.class, inHeader::finish).getMessage());
    }

    @Test
    void afterAFaultTheDecoderRefusesEverything() {
        FrameDecoder decoder = new FrameDecoder();
        assertThrows(ProtocolException.class, () -> decoder.feed(ByteBuffer.wrap(Frames.hex("52 09"))));
        ProtocolException again = assertThrows(ProtocolException.class,
                () -> decoder.feed(FrameCodec.encode(new Pause())));
        assertEquals(ErrorCode.UNSUPPORTED_VERSION, again.code());
        assertTrue(again.getMessage().startsWith("the stream already failed: protocol version 9"), again.getMessage());
        assertThrows(ProtocolException.class, decoder::finish);
    }

    @Test
    void aLowerLimitRefusesLargerFramesBeforeAllocating() throws ProtocolException {
        FrameDecoder decoder = new FrameDecoder(64);
        assertEquals(List.of(new Pause()), decoder.feed(FrameCodec.encode(new Pause())));
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> decoder.feed(FrameCodec.encode(new Data(0, 0, 0, 0, false, Frames.bytes(33, 0)))));
        assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code());
        assertTrue(e.getMessage().contains("65-byte payload; the most accepted is 64"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FrameDecoder(FrameCodec.MAX_PAYLOAD_LENGTH + 1));
    }

    @Test
    void aFrameSplitAcrossChunksGetsAnArrayOfItsOwn() throws ProtocolException {
        byte[] wire = FrameCodec.encode(new Data(0, 0, 0, 0, false, Frames.bytes(100, 5))).array();
        FrameDecoder decoder = new FrameDecoder();
        byte[] first = Arrays.copyOfRange(wire, 0, 50);
        assertNull(decoder.next(ByteBuffer.wrap(first)));
        Data data = (Data) decoder.next(ByteBuffer.wrap(wire, 50, wire.length - 50));
        Arrays.fill(first, (byte) 0);
        Arrays.fill(wire, (byte) 0);
        assertEquals(Frames.bytes(100, 5), data.payload());
        assertEquals(Data.FIELDS_LENGTH + 100, decoder.largestAllocation(), "one payload, nothing more");
    }
}
