/**
 * Fragment indexes from the containers: WebM/Matroska (EBML) and fragmented MP4 (ISO BMFF), cut
 * into fragments of about one round of display time each (papers/001 Section 1.1).
 */
package io.rondo.content.media;
