package io.rondo.content.ingest;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The ETag ingest gives an object: a prefix of the SHA-256 of its stored bytes, quoted, so that
 * the same bytes always have the same tag whichever disk or process stored them.
 */
final class ETags {

    private ETags() {
    }

    /** A fresh SHA-256 digest, to feed an object's stored bytes through. */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** The ETag of {@code content}. */
    static String of(byte[] content) {
        MessageDigest digest = sha256();
        digest.update(content);
        return of(digest);
    }

    /** The ETag of the bytes {@code digest} was fed; the digest is reset. */
    static String of(MessageDigest digest) {
        return ofSha256(digest.digest());
    }

    /** The ETag of bytes whose SHA-256 is {@code sha256}. */
    static String ofSha256(byte[] sha256) {
        return "\"" + HexFormat.of().formatHex(sha256, 0, 16) + "\"";
    }
}
