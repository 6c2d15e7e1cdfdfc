/**
 * MP3 (MPEG audio layer III) files: their frames stored in runs of one round each, and the ID3
 * tags and cover art a stored copy leaves out.
 */
package io.rondo.content.media.mp3;
