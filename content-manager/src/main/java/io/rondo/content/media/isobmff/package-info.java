/**
 * ISO BMFF (MP4, QuickTime): reading boxes and sample tables, and the fragmented MP4 writer that
 * stores any container's samples as one {@code moof} + {@code mdat} per round, with the sample
 * entries it needs (ISO/IEC 14496-12, 14496-14, 14496-15).
 */
package io.rondo.content.media.isobmff;
