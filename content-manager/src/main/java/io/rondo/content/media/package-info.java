/**
 * Continuous media remuxed at ingest so that each round of presentation is one fragment
 * (papers/001 Section 1.1), whatever the encoder's keyframe interval: MP4 (progressive or
 * fragmented) into fragmented MP4, WebM and Matroska into WebM with a Cluster a round, MP3 into
 * runs of frames; every sample's bytes untouched, each fragment's keyframe recorded. This package
 * holds what every container shares (the stored media, byte readers, codec strings, notes); each
 * container has its own subpackage, and {@link io.rondo.content.remux.MediaIndexers}, above them
 * all, sniffs a file and picks its container's remuxer.
 */
package io.rondo.content.media;
