package io.rondo.content.ingest;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Object names as every request and every change of the library spells them. */
class ObjectNamesTest {

    @Test
    void aNameStartsWithOneSlashAndHasOneBetweenSegments() {
        assertEquals("/videos/clip.webm", ObjectNames.normalize("videos/clip.webm"));
        assertEquals("/videos/clip.webm", ObjectNames.normalize("//videos///clip.webm"));
        assertEquals("/a/b", ObjectNames.normalize("/a//b"));
        String already = "/docs/report.pdf";
        assertSame(already, ObjectNames.normalize(already), "a normal name is taken as it is");
    }

    // café typed with a combining accent (NFD, as macOS names files) and precomposed (NFC) is one name.
    @Test
    void aNameIsKeptAndLookedUpInComposedForm() {
        String composed = "/caf\u00e9.txt";
        String decomposed = "/cafe\u0301.txt";

        assertEquals(composed, ObjectNames.normalize(decomposed));
        assertEquals(composed, ObjectNames.normalize(composed));
        assertEquals("/caf\u00e9/", ObjectNames.folder("/cafe\u0301/"));
    }

    @Test
    void dotsAreRefusedOnlyAsWholeSegments() {
        for (String climbing : new String[] {"/..", "/.", "/a/../b", "/a/./b", "/a/..", "../a", "/a//../b"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ObjectNames.normalize(climbing), climbing);
            assertTrue(refused.getMessage().contains("names cannot climb"), refused.getMessage());
        }
        assertEquals("/.hidden", ObjectNames.normalize("/.hidden"));
        assertEquals("/a/..b/c...", ObjectNames.normalize("/a/..b/c..."));
        assertEquals("/a/.../b", ObjectNames.normalize("/a/.../b"));
    }

    @Test
    void foldersControlCharactersBackslashesAndEmptyNamesAreRefused() {
        for (String bad : new String[] {"", " ", "/", "/a/", "/a\u0001b", "/a\\b", "/a\u007fb"}) {
            assertThrows(IllegalArgumentException.class, () -> ObjectNames.normalize(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> ObjectNames.normalize(null));
    }
}
