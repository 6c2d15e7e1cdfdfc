/**
 * MPEG-TS (ISO/IEC 13818-1): reading a transport stream's programs and PES packets, and storing
 * its H.264, H.265, AAC and MP3 as fragmented MP4 of one fragment a round.
 */
package io.rondo.content.media.mpegts;
