package io.rondo.content.model;

/**
 * A media object in the catalog (papers/001 Section 6(a)).
 *
 * @param id          a number that never changes and is never reused
 * @param name        its path in the directory tree, {@code /videos/clip.webm}; also its HTTP path
 * @param kind        discrete or continuous
 * @param mimeType    its Content-Type
 * @param size        its size in bytes as ingested
 * @param etag        a strong validator from a hash of its content
 * @param createdMs   when it was ingested, epoch milliseconds
 * @param modifiedMs  when its entry last changed, epoch milliseconds
 * @param placement   where its bytes live
 * @param media       for a continuous object, its index; null for a discrete one
 */
public record MediaObject(long id, String name, Kind kind, String mimeType, long size, String etag, long createdMs,
                          long modifiedMs, Placement placement, MediaIndex media) {

    public MediaObject {
        if (kind == Kind.CONTINUOUS && media == null) {
            throw new IllegalArgumentException("a continuous object needs its media index: " + name);
        }
    }

    /** The same object under another name, modified at {@code nowMs}. */
    public MediaObject renamed(String newName, long nowMs) {
        return new MediaObject(id, newName, kind, mimeType, size, etag, createdMs, nowMs, placement, media);
    }
}
