package io.rondo.systemtest;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rondo.content.media.MediaFormatException;
import io.rondo.content.remux.MediaIndexers;
import io.rondo.content.media.Preparation;
import io.rondo.content.media.StoredMedia;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.MediaIndex;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes what ingest does with an uploaded file: {@link MediaIndexers#prepare} sniffs the container
 * and plans the remux of WebM/Matroska (to WebM, or to fragmented MP4 for H.264/AAC in Matroska),
 * MP4, MPEG-TS and FLAC (to fragmented MP4), Ogg Vorbis and Opus (to WebM) and MP3 into one
 * fragment per round. Seeded with tiny real files made by ffmpeg (see docs/fuzzing.md); the
 * fuzzer's files are damaged versions of them.
 *
 * <p>What must hold for any file: either {@link MediaFormatException}, the rejection the person
 * ingesting sees with what is wrong and where, or a plan. A continuous plan's index starts with
 * its init segment at byte 0, its fragments follow it contiguously, in presentation order, and the
 * whole is bounded by the source's size. (Not that a fragment's keyframe is presented within it: a
 * keyframe time is a presentation time, which a damaged composition offset puts anywhere, and
 * seeking, {@code MediaIndex.keyframeFragmentAt}, only uses one at or before the position sought.)
 * Remuxing writes exactly the bytes the index promises, and Rondo's own indexer reads the result
 * back as media of the same container and codecs, with a sound index (not always of as many
 * rounds: samples that run past a damaged source's stated duration get a round of their own when
 * the stored copy is read again).
 */
class MediaFuzzTest {

    private static final long ROUND_NS = 1_000_000_000L;
    private static final Set<String> CONTAINERS = Set.of("webm", "mp4", "mp3");
    /**
     * Stored bytes a source of n bytes may become: its samples once, plus a fragment's headers (some
     * 32 bytes) for each round, of which there are no more than the source has bytes.
     */
    private static final long GROWTH = 64;
    private static final long HEADROOM = 1 << 16;
    /**
     * MPEG-2.5 Layer III at 8 kHz: 576 samples. Untagged MP3 is recognized by two frames in a row,
     * so a single frame, the whole of what some damaged files hold, is not.
     */
    private static final long LONGEST_MP3_FRAME_NS = 72_000_000L;

    private static Path folder;

    @BeforeAll
    static void makeFolder() throws IOException {
        folder = Files.createTempDirectory("rondo-media-fuzz");
    }

    @AfterAll
    static void removeFolder() throws IOException {
        for (String name : List.of("source", "remuxed")) {
            Files.deleteIfExists(folder.resolve(name));
        }
        Files.deleteIfExists(folder);
    }

    // A damaged upload is refused with a reason, or indexed soundly: never a crash, never a bad index.
    @FuzzTest(maxDuration = "20s")
    void index(byte[] file) throws IOException {
        try (StoredMedia media = prepare(file, "source")) {
            if (media != null) {
                checkIndex(media, file.length);
            }
        }
    }

    // Whatever ingest stores from a damaged upload is what its index says, and plays back as the same media.
    @FuzzTest(maxDuration = "20s")
    void remux(byte[] file) throws IOException {
        byte[] stored;
        MediaIndex index;
        try (StoredMedia media = prepare(file, "source")) {
            if (media == null) {
                return;
            }
            checkIndex(media, file.length);
            index = media.index();
            stored = write(media);
        } catch (MediaFormatException e) {
            // the source claims more than it holds, which only reading its samples shows
            assertTrue(e.getMessage().matches("(truncated|corrupt|unsupported): .+"), e.getMessage());
            return;
        }
        if (index.fragments().isEmpty()) {
            return;
        }
        try (StoredMedia again = prepare(stored, "remuxed")) {
            if (again == null && index.container().equals("mp3")) {
                assertTrue(index.durationNs() <= LONGEST_MP3_FRAME_NS,
                    "only a lone MP3 frame, stored without its ID3 tag, is too short to be recognized");
                return;
            }
            assertTrue(again != null, "the stored " + index.container() + " is media to Rondo's indexer");
            MediaIndex reread = again.index();
            assertEquals(index.container(), reread.container(), "the same container");
            assertEquals(index.codecs(), reread.codecs(), "the same codecs");
            checkIndex(again, stored.length);
        }
    }

    /** Writes {@code bytes} as a file and prepares it as ingest does; null for a discrete object. */
    private static StoredMedia prepare(byte[] bytes, String name) throws IOException {
        Path file = Files.write(folder.resolve(name), bytes);
        Preparation prepared;
        try {
            prepared = MediaIndexers.prepare(file, ROUND_NS, folder);
        } catch (MediaFormatException e) {
            assertTrue(e.getMessage().matches("(truncated|corrupt|unsupported): .+"),
                "a rejection says what is wrong: " + e.getMessage());
            return null;
        }
        if (prepared instanceof Preparation.Continuous continuous) {
            return continuous.media();
        }
        return null;
    }

    /** The init segment first, then contiguous fragments in presentation order, all of a bounded size. */
    private static void checkIndex(StoredMedia media, long sourceBytes) {
        MediaIndex index = media.index();
        assertTrue(CONTAINERS.contains(index.container()), "container " + index.container());
        assertTrue(index.durationNs() >= 0, "duration " + index.durationNs());
        assertEquals(0, index.init().offset(), "the init segment comes first");
        assertTrue(index.init().length() > 0 || index.container().equals("mp3"), "and is empty only for MP3");
        long next = index.init().end();
        long startNs = 0;
        for (Fragment fragment : index.fragments()) {
            assertEquals(next, fragment.offset(), "fragments follow one another: " + fragment);
            assertTrue(fragment.startNs() >= startNs, "in presentation order: " + fragment);
            next = fragment.offset() + fragment.length();
            startNs = fragment.startNs();
        }
        assertEquals(next, media.size(), "the stored size is the end of the last fragment");
        assertTrue(media.size() <= GROWTH * sourceBytes + HEADROOM,
            media.size() + " stored bytes from a source of " + sourceBytes);
    }

    /** Writes the init segment and every fragment, each exactly as long as the index says. */
    private static byte[] write(StoredMedia media) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        WritableByteChannel out = Channels.newChannel(bytes);
        media.writeInit(out);
        assertEquals(media.index().init().length(), bytes.size(), "the init segment is as long as indexed");
        List<Fragment> fragments = media.index().fragments();
        for (int i = 0; i < fragments.size(); i++) {
            media.writeFragment(i, out);
            assertEquals(fragments.get(i).offset() + fragments.get(i).length(), bytes.size(),
                "fragment " + i + " is as long as indexed");
        }
        return bytes.toByteArray();
    }
}
