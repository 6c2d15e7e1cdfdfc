/**
 * HTTP Live Streaming's playlists (RFC 8216, draft-pantos-hls-rfc8216bis; docs/hls.md), made from an
 * object's media index: which objects HLS can carry ({@link io.rondo.server.hls.HlsCodecs}), their
 * segments of whole rounds ({@link io.rondo.server.hls.HlsSegments}), and the multivariant and media
 * playlists ({@link io.rondo.server.hls.Playlists}), every URI a byte range of the stored copy. Pure
 * functions of the catalog: no network, no disk, no clock.
 */
package io.rondo.server.hls;
