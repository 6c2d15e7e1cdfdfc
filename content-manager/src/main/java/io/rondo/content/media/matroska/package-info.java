/**
 * Matroska and WebM (EBML): reading a file's tracks and blocks, and storing it as WebM with one
 * Cluster a round, or as fragmented MP4 where a browser plays its codecs from MP4 only.
 */
package io.rondo.content.media.matroska;
