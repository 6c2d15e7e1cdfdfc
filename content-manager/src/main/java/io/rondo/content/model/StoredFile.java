package io.rondo.content.model;

/**
 * A file holding some of an object's bytes: {@code path} under the root of disk {@code disk}.
 *
 * @param disk   the name of the disk (a storage root's device) it is on
 * @param path   its path relative to that disk's storage root, with '/' separators
 * @param length its size in bytes
 */
public record StoredFile(String disk, String path, long length) {
}
