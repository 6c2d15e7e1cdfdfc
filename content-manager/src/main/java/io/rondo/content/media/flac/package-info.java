/**
 * Native FLAC files: their frames stored as fragmented MP4 of one fragment a round (Encapsulation
 * of FLAC in ISOBMFF).
 */
package io.rondo.content.media.flac;
