"""Checks an HLS playlist as Python's m3u8 package reads it, for HlsTest.

Usage: python check_playlist.py OBJECT_BYTES < playlist.m3u8

Reads the playlist from standard input with m3u8's parser in strict mode (a line it does not know,
or a tag the playlist's EXT-X-VERSION does not allow, is an error), loads it with m3u8.loads, and checks every tag it knows
against RFC 8216 and draft-pantos-hls-rfc8216bis: a multivariant playlist's variants, or a media
playlist's target duration, byte ranges (contiguous from the EXT-X-MAP on, each within the
object's OBJECT_BYTES; 0 when the object is still growing), parts (each within the part target,
together the bytes and the duration of their segment), server control and preload hint. Prints one
JSON object: what it read and "errors", the list of what is wrong (empty for a valid playlist).
"""
import json
import math
import sys

import m3u8


def byte_range(text, follows):
    """(length, offset) of an EXT-X-BYTERANGE or BYTERANGE value; no offset means right after `follows`."""
    length, _, offset = text.strip('"').partition("@")
    return int(length), int(offset) if offset else follows


class Check:
    def __init__(self, object_bytes):
        self.object_bytes = object_bytes
        self.errors = []

    def that(self, condition, message):
        if not condition:
            self.errors.append(message)

    def within_object(self, what, length, offset):
        self.that(length > 0, f"{what}: an empty byte range")
        if self.object_bytes > 0:
            self.that(offset + length <= self.object_bytes,
                      f"{what}: bytes {offset}-{offset + length - 1} past the object's {self.object_bytes}")


def multivariant(playlist, check):
    variants = []
    for variant in playlist.playlists:
        info = variant.stream_info
        check.that(info.bandwidth is not None and info.bandwidth > 0, f"{variant.uri}: no BANDWIDTH")
        check.that(bool(info.codecs), f"{variant.uri}: no CODECS")
        if info.average_bandwidth is not None and info.bandwidth is not None:
            check.that(info.average_bandwidth <= info.bandwidth,
                       f"{variant.uri}: AVERAGE-BANDWIDTH {info.average_bandwidth} above BANDWIDTH {info.bandwidth}")
        variants.append({"uri": variant.uri, "bandwidth": info.bandwidth,
                         "averageBandwidth": info.average_bandwidth, "codecs": info.codecs})
    check.that(len(variants) > 0, "a multivariant playlist with no variant")
    check.that(len(playlist.segments) == 0, "a multivariant playlist with media segments")
    return {"variants": variants}


def parts_of(segment, label, follows, start, part_target, check):
    """The segment's parts as dicts, checked: contiguous from `follows`, each at most the part target.

    Each part's "start" is its media time in seconds from the first segment's start, which `start`
    is the segment's (m3u8 counts a part's time twice once its segment is listed, so it is counted here).
    """
    parts = []
    for part in segment.parts:
        what = f"{label} part {len(parts)}"
        check.that(part.byterange is not None, f"{what}: no BYTERANGE")
        if part.byterange is None:
            continue
        length, offset = byte_range(part.byterange, follows)
        check.within_object(what, length, offset)
        check.that(offset == follows, f"{what}: starts at byte {offset}, not right after the last ({follows})")
        if part_target is not None:
            check.that(part.duration <= part_target + 0.0005,
                       f"{what}: DURATION {part.duration} above the PART-TARGET {part_target}")
        parts.append({"uri": part.uri, "duration": part.duration, "offset": offset, "length": length,
                      "independent": part.independent == "YES", "start": start})
        follows = offset + length
        start += part.duration
    return parts, follows


def media(playlist, check):
    target = playlist.target_duration
    check.that(target is not None, "no EXT-X-TARGETDURATION")
    part_target = playlist.part_inf.part_target if playlist.part_inf else None
    init = None
    follows = 0
    maps = playlist.segment_map
    check.that(len(maps) <= 1, f"{len(maps)} EXT-X-MAP tags; one init segment serves every segment")
    if maps:
        check.that(maps[0].byterange is not None, "EXT-X-MAP without a BYTERANGE")
        if maps[0].byterange:
            length, offset = byte_range(maps[0].byterange, 0)
            check.within_object("EXT-X-MAP", length, offset)
            init = {"uri": maps[0].uri, "offset": offset, "length": length}
            follows = offset + length
    segments = []
    pending_parts = []
    start = 0.0
    for segment in playlist.segments:
        label = f"segment {len(segments)}"
        parts, parts_end = parts_of(segment, label, follows, start, part_target, check)
        if segment.uri is None:
            pending_parts = parts
            follows = parts_end
            continue
        check.that(segment.byterange is not None, f"{label}: no EXT-X-BYTERANGE")
        if segment.byterange is None:
            continue
        length, offset = byte_range(segment.byterange, follows)
        check.within_object(label, length, offset)
        check.that(offset == follows, f"{label}: starts at byte {offset}, not right after the last ({follows})")
        if target is not None:
            check.that(math.floor(segment.duration + 0.5) <= target,
                       f"{label}: EXTINF {segment.duration} rounds above the target duration {target}")
        if parts:
            check.that(parts_end == offset + length,
                       f"{label}: its parts end at byte {parts_end}, the segment at {offset + length}")
            part_seconds = sum(part["duration"] for part in parts)
            check.that(math.isclose(part_seconds, segment.duration, abs_tol=0.001 * len(parts) + 0.001),
                       f"{label}: its parts last {part_seconds:.3f} s, its EXTINF {segment.duration}")
            check.that(parts[0]["independent"], f"{label}: its first part is not INDEPENDENT=YES")
        segments.append({"uri": segment.uri, "duration": segment.duration, "offset": offset, "length": length,
                         "parts": parts, "start": start})
        follows = offset + length
        start += segment.duration
    has_parts = pending_parts or any(s["parts"] for s in segments)
    check.that(not has_parts or part_target is not None, "EXT-X-PART without EXT-X-PART-INF")
    control = None
    if playlist.server_control:
        sc = playlist.server_control
        control = {"canBlockReload": sc.can_block_reload == "YES", "holdBack": sc.hold_back,
                   "partHoldBack": sc.part_hold_back}
        if sc.hold_back is not None and target is not None:
            check.that(sc.hold_back >= 3 * target, f"HOLD-BACK {sc.hold_back} below three target durations")
        if part_target is not None:
            check.that(sc.part_hold_back is not None, "EXT-X-PART-INF without a PART-HOLD-BACK")
            if sc.part_hold_back is not None:
                check.that(sc.part_hold_back >= 2 * part_target,
                           f"PART-HOLD-BACK {sc.part_hold_back} below two part targets")
    hint = None
    if playlist.preload_hint:
        ph = playlist.preload_hint
        hint = {"type": ph.hint_type, "uri": ph.uri, "byterangeStart": ph.byterange_start}
        check.that(ph.hint_type == "PART", f"a PRELOAD-HINT of TYPE {ph.hint_type}, not PART")
        check.that(part_target is not None, "a PRELOAD-HINT in a playlist without parts")
        check.that(ph.byterange_start == follows,
                   f"the PRELOAD-HINT starts at byte {ph.byterange_start}, not after the last part ({follows})")
    if playlist.playlist_type == "vod":
        check.that(playlist.is_endlist, "a VOD playlist without EXT-X-ENDLIST")
        check.that(not pending_parts and hint is None, "a VOD playlist with parts of an unfinished segment")
    check.that(len(segments) > 0 or pending_parts, "a media playlist with no segment and no part")
    if segments and playlist.program_date_time is not None:
        check.that(playlist.segments[0].program_date_time == playlist.program_date_time,
                   "the first EXT-X-PROGRAM-DATE-TIME is not on the first segment")
    return {"targetDuration": target, "partTarget": part_target, "map": init, "segments": segments,
            "pendingParts": pending_parts, "serverControl": control, "preloadHint": hint,
            "mediaSequence": playlist.media_sequence, "endList": playlist.is_endlist,
            "programDateTime": playlist.program_date_time.isoformat() if playlist.program_date_time else None,
            "totalDuration": sum(s["duration"] for s in segments), "nextByte": follows}


def main():
    object_bytes = int(sys.argv[1])
    text = sys.stdin.read()
    check = Check(object_bytes)
    check.that(text.startswith("#EXTM3U"), "the playlist does not start with #EXTM3U")
    try:
        m3u8.parse(text, strict=True)
    except Exception as error:  # m3u8 raises ParseError, or a plain Exception listing version mismatches
        print(json.dumps({"kind": None, "errors": [f"m3u8's strict parser refused it: {error}"]}))
        return
    playlist = m3u8.loads(text)
    version = playlist.version
    check.that(version is not None, "no EXT-X-VERSION")
    report = {"kind": "multivariant" if playlist.is_variant else "media", "version": version,
              "playlistType": playlist.playlist_type, "independentSegments": playlist.is_independent_segments}
    if playlist.is_variant:
        report.update(multivariant(playlist, check))
    else:
        report.update(media(playlist, check))
        if report["map"] is not None and version is not None:
            check.that(int(version) >= 6, f"EXT-X-MAP in a media playlist needs EXT-X-VERSION 6, not {version}")
    report["errors"] = check.errors
    print(json.dumps(report))


if __name__ == "__main__":
    main()
