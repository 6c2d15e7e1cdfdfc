package io.rondo.content.ingest;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The digest computed on its own thread is the one a single thread computes, whatever the pieces. */
class BackgroundDigestTest {

    @Test
    void piecesOfEverySizeAcrossHandOversGiveTheSameSha256() throws Exception {
        byte[] bytes = new byte[5 * BackgroundDigest.BUFFER_BYTES + 12_345];
        new Random(5).nextBytes(bytes);
        Random sizes = new Random(6);
        byte[] background;
        try (BackgroundDigest digest = new BackgroundDigest(MessageDigest.getInstance("SHA-256"))) {
            int at = 0;
            while (at < bytes.length) {
                int n = Math.min(bytes.length - at, sizes.nextInt(3) == 0 ? sizes.nextInt(3 * BackgroundDigest
                    .BUFFER_BYTES) : sizes.nextInt(5000));
                ByteBuffer piece = ByteBuffer.wrap(bytes, at, n);
                digest.update(piece);
                assertEquals(at, piece.position(), "the caller's buffer is left as it was");
                at += n;
            }
            background = digest.digest();
        }
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(bytes), background);
    }

    @Test
    void nothingGivenIsTheDigestOfNothing() throws Exception {
        try (BackgroundDigest digest = new BackgroundDigest(MessageDigest.getInstance("SHA-256"))) {
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(), digest.digest());
        }
    }
}
