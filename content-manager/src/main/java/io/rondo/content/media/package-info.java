/**
 * Continuous media remuxed at ingest so that each round of presentation is one fragment
 * (papers/001 Section 1.1), whatever the encoder's keyframe interval: MP4 (progressive or
 * fragmented) into fragmented MP4, WebM and Matroska into WebM with a Cluster a round, MP3 into
 * runs of frames; every sample's bytes untouched, each fragment's keyframe recorded.
 */
package io.rondo.content.media;
