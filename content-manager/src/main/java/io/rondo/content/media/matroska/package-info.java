/**
 * Matroska and WebM (EBML): reading a file's tracks and blocks, and storing it as WebM with one
 * Cluster a round, or as fragmented MP4 where a browser plays its codecs from MP4 only; and cutting
 * a live WebM stream into one Cluster a round as it arrives, by the same rules.
 */
package io.rondo.content.media.matroska;
