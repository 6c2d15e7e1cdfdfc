package io.rondo.server.http;

/**
 * What conditional and range requests are evaluated against: a representation's length and its
 * validators.
 *
 * @param size           its length in bytes
 * @param etag           its strong entity tag, quoted: {@code "abc"}
 * @param lastModifiedMs when it last changed, epoch milliseconds
 */
public record Representation(long size, String etag, long lastModifiedMs) {
}
