package io.rondo.benchmarks.preset.hls;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    @Test
    void whatIsNotAPlaylistIsRefusedWithItsReason() {
        assertThrows(IllegalArgumentException.class, () -> Playlists.variant("Service Unavailable", "/a.m3u8"));
        assertThrows(IllegalArgumentException.class, () -> Playlists.media("#EXTM3U\n#EXT-X-ENDLIST\n", "/a.m3u8"));
        assertThrows(IllegalArgumentException.class, () -> Playlists.media(MEDIA.replace("BYTERANGE=\"1200@0\"", ""),
            "/a.m3u8"));
    }
}
