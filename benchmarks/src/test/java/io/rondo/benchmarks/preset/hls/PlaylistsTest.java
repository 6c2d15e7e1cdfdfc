package io.rondo.benchmarks.preset.hls;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A client reads Rondo's playlists as the HLS contract writes them: one variant, the init range and every part. */
class PlaylistsTest {

    private static final String SESSION = "0123456789abcdef0123456789abcdef";

    static final String MULTIVARIANT = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-STREAM-INF:BANDWIDTH=2400000,AVERAGE-BANDWIDTH=2100000,CODECS="avc1.42c01e,mp4a.40.2"
        color-bars.mp4.m3u8?session=%s
        """.formatted(SESSION);

    static final String MEDIA = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-PART-INF:PART-TARGET=1.000
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MAP:URI="color-bars.mp4?session=%1$s",BYTERANGE="1200@0"
        #EXT-X-PART:DURATION=1.000,URI="color-bars.mp4?session=%1$s",BYTERANGE="250000@1200",INDEPENDENT=YES
        #EXT-X-PART:DURATION=1.000,URI="color-bars.mp4?session=%1$s",BYTERANGE="240000@251200",INDEPENDENT=YES
        #EXTINF:2.000,
        #EXT-X-BYTERANGE:490000@1200
        color-bars.mp4?session=%1$s
        #EXT-X-PART:DURATION=0.480,URI="color-bars.mp4?session=%1$s",BYTERANGE="120000",INDEPENDENT=YES
        #EXTINF:0.480,
        #EXT-X-BYTERANGE:120000@491200
        color-bars.mp4?session=%1$s
        #EXT-X-ENDLIST
        """.formatted(SESSION);

    @Test
    void theMultivariantPlaylistNamesTheSessionsMediaPlaylistBesideIt() {
        assertEquals("/videos/color-bars.mp4.m3u8?session=" + SESSION,
            Playlists.variant(MULTIVARIANT, "/videos/color-bars.mp4.m3u8"));
    }

    @Test
    void theMediaPlaylistGivesTheInitRangeAndEveryPartInOrder() {
        Playlists.Media media = Playlists.media(MEDIA, "/videos/color-bars.mp4.m3u8?session=" + SESSION);
        String path = "/videos/color-bars.mp4?session=" + SESSION;
        assertEquals(new Playlists.ByteRange(path, 0, 1200), media.init());
        assertEquals(List.of(
            new Playlists.Part(new Playlists.ByteRange(path, 1200, 250_000), 1_000_000_000L),
            new Playlists.Part(new Playlists.ByteRange(path, 251_200, 240_000), 1_000_000_000L),
            new Playlists.Part(new Playlists.ByteRange(path, 491_200, 120_000), 480_000_000L)), media.parts());
    }

    @Test
    void aPlainFileServerIsAskedForTheSameRangesOfTheObjectsPath() {
        Playlists.Media media = Playlists.media(MEDIA, "/videos/color-bars.mp4.m3u8?session=" + SESSION)
            .at("/videos/color-bars.mp4");
        assertEquals(new Playlists.ByteRange("/videos/color-bars.mp4", 0, 1200), media.init());
        assertEquals(new Playlists.ByteRange("/videos/color-bars.mp4", 491_200, 120_000),
            media.parts().get(2).range());
    }

    static final String LIVE = """
        #EXTM3U
        #EXT-X-VERSION:9
        #EXT-X-TARGETDURATION:6
        #EXT-X-PART-INF:PART-TARGET=1.000
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.000,HOLD-BACK=18.000
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-MAP:URI="rec.mp4?session=ab",BYTERANGE="800@0"
        #EXT-X-PROGRAM-DATE-TIME:2026-11-27T13:45:00.250Z
        #EXTINF:6.000,
        #EXT-X-BYTERANGE:1500000@800
        rec.mp4?session=ab
        #EXT-X-PART:DURATION=1.000,URI="rec.mp4?session=ab",BYTERANGE="250000@1500800",INDEPENDENT=YES
        #EXT-X-PART:DURATION=0.960,URI="rec.mp4?session=ab",BYTERANGE="240000@1750800",INDEPENDENT=YES
        """;

    @Test
    void aLivePlaylistsPartsEndAtTheirSegmentsDateTimePlusTheirOffsetAndDuration() {
        Playlists.Live live = Playlists.live(LIVE + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"rec.mp4?session=ab\","
            + "BYTERANGE-START=1990800\n", "/live/rec.mp4.m3u8?session=ab");
        assertEquals(Instant.parse("2026-11-27T13:45:00.250Z").toEpochMilli(), live.programDateEpochMs());
        assertEquals(List.of(
            new Playlists.LivePart(1, 0, new Playlists.ByteRange("/live/rec.mp4?session=ab", 1_500_800, 250_000),
                1_000_000_000L, 7_000_000_000L),
            new Playlists.LivePart(1, 1, new Playlists.ByteRange("/live/rec.mp4?session=ab", 1_750_800, 240_000),
                960_000_000L, 7_960_000_000L)), live.parts());
        assertFalse(live.ended());
        assertEquals(List.of(1L, 2L), List.of(live.nextAfterLast()[0], live.nextAfterLast()[1]),
            "the open segment's next part");
    }

    @Test
    void afterASegmentClosesTheNextPartIsTheNextSegmentsFirstAndTheEndListEndsTheRecording() {
        Playlists.Live live = Playlists.live(LIVE + "#EXTINF:1.960,\n#EXT-X-BYTERANGE:490000@1500800\n"
            + "rec.mp4?session=ab\n#EXT-X-ENDLIST\n", "/live/rec.mp4.m3u8?session=ab");
        assertEquals(List.of(2L, 0L), List.of(live.nextAfterLast()[0], live.nextAfterLast()[1]));
        assertTrue(live.ended());
    }

    @Test
    void whatIsNotAPlaylistIsRefusedWithItsReason() {
        assertThrows(IllegalArgumentException.class, () -> Playlists.variant("Service Unavailable", "/a.m3u8"));
        assertThrows(IllegalArgumentException.class, () -> Playlists.media("#EXTM3U\n#EXT-X-ENDLIST\n", "/a.m3u8"));
        assertThrows(IllegalArgumentException.class, () -> Playlists.media(MEDIA.replace("BYTERANGE=\"1200@0\"", ""),
            "/a.m3u8"));
    }
}
