package io.rondo.server.hls;

import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The playlists a player reads: what each tag says of the media, and the rules RFC 8216 sets them. */
class PlaylistsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Pattern BYTERANGE = Pattern.compile("BYTERANGE[:=]\"?(\\d+)@(\\d+)");

    /** {@code rounds} fragments of one second and {@code bytes} after a 1000-byte init, a keyframe each {@code gop}. */
    private static MediaIndex media(int rounds, int gop, long bytes) {
        List<Fragment> fragments = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            boolean key = i % gop == 0;
            fragments.add(Fragment.unplaced(i * SECOND, SECOND, 1000 + i * bytes, bytes,
                key ? i * SECOND : Fragment.NO_KEYFRAME, key));
        }
        return new MediaIndex("mp4", "video/mp4", "avc1.42C01E, mp4a.40.2", rounds * SECOND, new ByteRange(0, 1000),
            fragments);
    }

    @Test
    void segmentsAreWholeRoundsOfAboutSixSecondsStartingAtKeyframes() {
        List<HlsSegments.Segment> everyRound = HlsSegments.of(media(20, 1, 100).fragments(), true);
        assertEquals(List.of(0, 6, 12, 18), everyRound.stream().map(HlsSegments.Segment::first).toList());
        assertEquals(2 * SECOND, everyRound.get(3).durationNs(), "the last segment holds what is left");

        List<HlsSegments.Segment> fourSecondGops = HlsSegments.of(media(20, 4, 100).fragments(), true);
        assertEquals(List.of(0, 8, 16), fourSecondGops.stream().map(HlsSegments.Segment::first).toList(),
            "a segment may only start at a keyframe, so with 4 s GOPs they are 8 s");
        assertTrue(fourSecondGops.stream().allMatch(HlsSegments.Segment::keyframe));
    }

    @Test
    void aGrowingRecordingsSegmentsNeverChangeAsItGrows() {
        MediaIndex whole = media(30, 2, 100);
        List<HlsSegments.Segment> before = null;
        for (int cut = 1; cut <= 30; cut++) {
            List<HlsSegments.Segment> now = HlsSegments.of(whole.fragments().subList(0, cut), false);
            assertFalse(now.get(now.size() - 1).closed(), "the last segment stays open while the recording grows");
            if (before != null) {
                List<HlsSegments.Segment> closedBefore = before.stream().filter(HlsSegments.Segment::closed).toList();
                assertEquals(closedBefore, now.subList(0, closedBefore.size()), "after " + cut + " rounds");
            }
            before = now;
        }
    }

    @Test
    void theVodPlaylistAddressesEveryByteOfTheStoredCopyOnceAsSegmentsAndAgainAsParts() {
        MediaIndex media = media(14, 1, 5000);
        String playlist = Playlists.media(new Playlists.Media("/videos/a b.mp4", "k1", media, false, SECOND, -1,
            true));
        String withoutParts = Playlists.media(new Playlists.Media("/videos/a b.mp4", "k1", media, false, SECOND, -1,
            false));
        assertFalse(withoutParts.contains("#EXT-X-PART"), "a finished object lists parts only when asked");
        assertEquals(playlist.replaceAll("#EXT-X-PART[:-][^\n]*\n", "").replace("VERSION:9", "VERSION:7"),
            withoutParts, "and is otherwise the same");

        assertTrue(playlist.startsWith("#EXTM3U\n"));
        assertTrue(playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD\n"));
        assertTrue(playlist.endsWith("#EXT-X-ENDLIST\n"));
        assertTrue(playlist.contains("#EXT-X-TARGETDURATION:6\n"));
        assertTrue(playlist.contains("#EXT-X-MAP:URI=\"a%20b.mp4?session=k1\",BYTERANGE=\"1000@0\"\n"));
        assertFalse(playlist.contains("CAN-BLOCK-RELOAD"), "a finished object's playlist does not block");
        long segmentBytes = 0;
        long partBytes = 0;
        long next = 1000;
        double seconds = 0;
        for (String line : playlist.split("\n")) {
            if (line.startsWith("#EXT-X-BYTERANGE:")) {
                long[] range = range(line);
                assertEquals(next, range[1], "segments follow each other: " + line);
                next = range[1] + range[0];
                segmentBytes += range[0];
            } else if (line.startsWith("#EXT-X-PART:")) {
                partBytes += range(line)[0];
                assertTrue(line.contains("INDEPENDENT=YES"), "every round starts with a keyframe here");
            } else if (line.startsWith("#EXTINF:")) {
                seconds += Double.parseDouble(line.substring(8, line.indexOf(',')));
            }
        }
        assertEquals(14 * 5000, segmentBytes);
        assertEquals(14 * 5000, partBytes);
        assertEquals(14.0, seconds, 1e-9, "the durations add up to the media's");
    }

    @Test
    void aRecordingsPlaylistIsAnEventPlaylistWithBlockingReloadsAPreloadHintAndItsDateTime() {
        MediaIndex media = media(8, 1, 100);
        String playlist = Playlists.media(new Playlists.Media("/cams/door.mp4", "k2", media, true, SECOND,
            1_800_000_000_000L, false));

        assertTrue(playlist.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"));
        assertTrue(playlist.contains("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.000,"
            + "HOLD-BACK=18.000\n"));
        assertTrue(playlist.contains("#EXT-X-PROGRAM-DATE-TIME:2027-01-15T08:00:00Z\n"));
        assertTrue(playlist.contains("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"door.mp4?session=k2\","
            + "BYTERANGE-START=1800\n"), "the next part starts where the last ends");
        assertFalse(playlist.contains("#EXT-X-ENDLIST"));
        assertEquals(1, playlist.split("#EXTINF").length - 1, "one closed segment, the open one as parts");
        assertEquals(8, playlist.split("#EXT-X-PART:").length - 1);

        List<HlsSegments.Segment> segments = new Playlists.Media("/cams/door.mp4", "k2", media, true, SECOND, 0,
            false).segments();
        assertTrue(Playlists.holds(segments, 0, -1), "segment 0 is complete");
        assertTrue(Playlists.holds(segments, 1, 1));
        assertFalse(Playlists.holds(segments, 1, 2), "segment 1 has parts 0 and 1 so far");
        assertFalse(Playlists.holds(segments, 1, -1), "and is not complete");
        assertFalse(Playlists.holds(segments, 2, 0));
    }

    @Test
    void theMultivariantPlaylistNamesTheCodecsAndTheSessionsMediaPlaylist() {
        String playlist = Playlists.multivariant("/videos/a.mp4", media(6, 1, 125_000), "k3", false);
        assertTrue(playlist.contains("#EXT-X-STREAM-INF:BANDWIDTH=1000000,AVERAGE-BANDWIDTH=1000000,"
            + "CODECS=\"avc1.42C01E,mp4a.40.2\"\na.mp4.m3u8?session=k3\n"), playlist);
        assertTrue(Playlists.multivariant("/videos/a.mp4", media(6, 1, 125_000), "k3", true)
            .endsWith("a.mp4.m3u8?session=k3&parts=1\n"), "a playlist asked for parts keeps asking");
    }

    @Test
    void webmAndCodecsHlsDoesNotCarryAreRefusedSayingWhatToDo() {
        assertNull(HlsCodecs.refusal("/a.mp4", media(1, 1, 1)));
        MediaIndex webm = new MediaIndex("webm", "video/webm", "vp9, opus", SECOND, new ByteRange(0, 10),
            media(1, 1, 1).fragments());
        String refusal = HlsCodecs.refusal("/a.webm", webm);
        assertNotNull(refusal);
        assertTrue(refusal.contains("HLS cannot carry") && refusal.contains("MP4 copy"), refusal);
        MediaIndex vp9InMp4 = new MediaIndex("mp4", "video/mp4", "vp09.00.10.08", SECOND, new ByteRange(0, 10),
            media(1, 1, 1).fragments());
        assertTrue(HlsCodecs.refusal("/b.mp4", vp9InMp4).contains("vp09.00.10.08"));
    }

    private static long[] range(String line) {
        Matcher matcher = BYTERANGE.matcher(line);
        assertTrue(matcher.find(), line);
        return new long[] {Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2))};
    }
}
