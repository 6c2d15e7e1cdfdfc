/**
 * Ogg (RFC 3533) with Vorbis or Opus: reading its pages and packets, and storing them as WebM of
 * one Cluster a round.
 */
package io.rondo.content.media.ogg;
