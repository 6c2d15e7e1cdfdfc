package io.rondo.content.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rondo.content.model.ByteRange;
import io.rondo.content.model.Fragment;
import io.rondo.content.model.Kind;
import io.rondo.content.model.MediaIndex;
import io.rondo.content.model.MediaObject;
import io.rondo.content.model.Placement;
import io.rondo.content.model.StoredFile;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MediaObjectCodecTest {

    @Test
    void aDocumentRoundTrips() {
        MediaObject document = CatalogObjects.discrete(42, "/docs/report.pdf");
        assertEquals(document, roundTrip(document));
    }

    @Test
    void aPlacedFilmRoundTrips() {
        MediaObject film = CatalogObjects.film(7, "/videos/film.webm", 7200, 4, 1);
        assertEquals(film, roundTrip(film));
    }

    @Test
    void anUnplacedIrregularTableRoundTrips() {
        Random random = new Random(3);
        List<Fragment> table = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            long start = random.nextInt(10) == 0 ? Long.MAX_VALUE / 2 : random.nextInt(1 << 30);
            int keyframe = random.nextInt(4);
            long keyframeNs = keyframe == 0 ? Fragment.NO_KEYFRAME : keyframe == 1 ? start
                : start + random.nextInt(2_000_000) - (keyframe == 3 ? 0 : 500_000);
            Fragment fragment = Fragment.unplaced(start, random.nextInt(3_000_000), random.nextLong() >>> 2,
                1 + random.nextInt(1 << 24), Math.max(keyframeNs, Fragment.NO_KEYFRAME), keyframe % 2 == 1);
            table.add(i % 3 == 0 ? fragment.placedAt(random.nextInt(9) - 1, random.nextLong() >>> 1) : fragment);
        }
        MediaIndex media = new MediaIndex("mp4", "audio/mp4", "", 77, new ByteRange(0, 0), table);
        MediaObject object = new MediaObject(1, "/a/ünïcødé 音.mp4", Kind.CONTINUOUS, null, -1, null, -5,
            Long.MIN_VALUE / 4, new Placement(List.of(new StoredFile("d", "p", -1))), media);
        assertEquals(object, roundTrip(object));
    }

    @Test
    void absentFieldsRoundTrip() {
        MediaIndex media = new MediaIndex(null, null, null, 0, null, List.of());
        MediaObject sparse = new MediaObject(Long.MAX_VALUE, "/x", null, null, Long.MAX_VALUE, null,
            Long.MIN_VALUE, Long.MAX_VALUE, null, media);
        assertEquals(sparse, roundTrip(sparse));
    }

    /** The measurement behind the hand-written layout: a 2-hour film's table in bytes, beside JSON. */
    @Test
    void aTwoHourFilmTakesAboutEightBytesPerFragment() throws Exception {
        MediaObject film = CatalogObjects.film(7, "/videos/film.webm", 7200, 4, 1);
        int binary = MediaObjectCodec.encode(film).length;
        int json = new ObjectMapper().writeValueAsBytes(film).length;
        int document = MediaObjectCodec.encode(CatalogObjects.discrete(42, "/docs/report.pdf")).length;
        System.out.printf("catalog entry of a 7200-fragment film: %,d bytes (%.1f per fragment); as JSON %,d bytes "
            + "(%.1f per fragment); a document: %d bytes%n", binary, binary / 7200.0, json, json / 7200.0, document);
        assertTrue(binary < 7200 * 9, "under 9 bytes per fragment: " + binary);
        assertTrue(binary * 10 < json, "a tenth of JSON or less: " + binary + " against " + json);
        assertTrue(document < 200, "a document's entry is small: " + document);
    }

    @Test
    void theNameIsReadInPlaceFromTheHeadOfTheEntry() {
        MediaObject film = CatalogObjects.film(7, "/videos/ünïcødé film.webm", 100, 2, 1);
        byte[] entry = MediaObjectCodec.encode(film);
        byte[] padded = new byte[entry.length + 10];
        System.arraycopy(entry, 0, padded, 3, entry.length);
        assertEquals(film.name(), MediaObjectCodec.decodeName(Bytes.wrapForRead(padded), 3, entry.length));
    }

    @Test
    void aDamagedEntryIsRefusedWithItsId() {
        byte[] entry = MediaObjectCodec.encode(CatalogObjects.film(9, "/f.webm", 50, 2, 1));
        IllegalStateException truncated = assertThrows(IllegalStateException.class,
            () -> MediaObjectCodec.decode(9, Arrays.copyOf(entry, entry.length - 3)));
        assertTrue(truncated.getMessage().contains("object 9"), truncated.getMessage());
        byte[] longer = Arrays.copyOf(entry, entry.length + 1);
        assertThrows(IllegalStateException.class, () -> MediaObjectCodec.decode(9, longer));
    }

    private static MediaObject roundTrip(MediaObject object) {
        return MediaObjectCodec.decode(object.id(), MediaObjectCodec.encode(object));
    }
}
