// What feeds the video element, as the browser allows. Media Source Extensions where there is a
// MediaSource; on an iPhone, which has none, a ManagedMediaSource (iOS 17.1 and later), which says
// when it wants media (startstreaming, endstreaming) and may evict what it holds; where neither
// exists, the browser's own HLS, which plays the clip's playlist (/player/info's hls) itself.
// A MediaSource cannot go to an AirPlay receiver, which needs an address it can fetch: a
// ManagedMediaSource plays only beside such an alternative (the clip's HLS playlist as a second
// <source>) or with remote playback disabled (WebKit, "How to use Media Source Extensions with
// AirPlay"). The window and the video element are passed in, so stand-ins can test all this.

/** The MIME type of an HLS playlist. */
export const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** Media Source Extensions: a MediaSource. */
export const MSE = 'mse';
/** A ManagedMediaSource, where there is no MediaSource. */
export const MANAGED = 'managed';
/** Neither, but the video element plays HLS itself. */
export const NATIVE_HLS = 'native-hls';
/** Nothing the player can play through. */
export const NONE = 'none';

/**
 * How this browser plays a clip, from its window and the video element: { kind, MediaSource,
 * objectUrl } with kind MSE, MANAGED (no MediaSource but a ManagedMediaSource), NATIVE_HLS (neither,
 * but canPlayType says maybe or probably to an HLS playlist) or NONE. isTypeSupported and the object
 * URL go through the class chosen.
 */
export function choosePlayback(win, video) {
  const objectUrl = (mediaSource) => win.URL.createObjectURL(mediaSource);
  if (typeof win.MediaSource === 'function') {
    return { kind: MSE, MediaSource: win.MediaSource, objectUrl };
  }
  if (typeof win.ManagedMediaSource === 'function') {
    return { kind: MANAGED, MediaSource: win.ManagedMediaSource, objectUrl };
  }
  const answer = video.canPlayType(HLS_TYPE);
  return { kind: answer === 'maybe' || answer === 'probably' ? NATIVE_HLS : NONE };
}

/**
 * Why this browser cannot play the clip that info (/player/info) describes the way playback says;
 * null if it can.
 */
export function refusal(playback, info) {
  switch (playback.kind) {
    case NONE:
      return 'This browser has no Media Source Extensions, which the player needs, and does not play HLS itself.';
    case NATIVE_HLS:
      return info.hls ? null : 'This browser has no Media Source Extensions and plays clips only as HLS, '
        + `which the server does not offer for this one: ${info.hlsUnavailable ?? 'it gave no playlist'}.`;
    default:
      return playback.MediaSource.isTypeSupported(info.mseType) ? null
        : `This browser cannot decode ${info.mseType} through Media Source Extensions.`;
  }
}

/**
 * Puts mediaSource behind the video element. A ManagedMediaSource with the clip's playlist (hls)
 * goes in as the element's first <source> and the playlist as its second, which an AirPlay receiver
 * plays when the person picks one; without a playlist, remote playback is disabled, as a
 * ManagedMediaSource requires.
 */
export function attachMediaSource(video, mediaSource, playback, hls) {
  const url = playback.objectUrl(mediaSource);
  if (playback.kind !== MANAGED || !hls) {
    if (playback.kind === MANAGED) {
      video.disableRemotePlayback = true;
    }
    video.src = url;
    return;
  }
  video.disableRemotePlayback = false;
  const source = (src, type) => {
    const element = video.ownerDocument.createElement('source');
    element.src = src;
    if (type) {
      element.type = type;
    }
    return element;
  };
  video.append(source(url, null), source(hls, HLS_TYPE));
}

/**
 * True if an AirPlay receiver can play what feeds the video element: the browser's own HLS, or a
 * ManagedMediaSource beside the clip's playlist.
 */
export function airPlayable(playback, info) {
  return playback.kind === NATIVE_HLS || playback.kind === MANAGED && Boolean(info.hls);
}

/**
 * Shows button while Safari says an AirPlay receiver is in reach, and opens its picker on a click;
 * false, and nothing shown, in a browser without AirPlay.
 */
export function offerAirPlay(win, video, button) {
  if (!win.WebKitPlaybackTargetAvailabilityEvent) {
    return false;
  }
  video.addEventListener('webkitplaybacktargetavailabilitychanged', (event) => {
    button.hidden = event.availability !== 'available';
  });
  button.addEventListener('click', () => video.webkitShowPlaybackTargetPicker());
  return true;
}

/**
 * Where playback at positionS needs media fetched again after the browser evicted removed
 * ([{ start, end }] seconds): the earliest evicted moment at or after the position; null when all
 * of it lay behind the position.
 */
export function refetchFromS(removed, positionS) {
  const from = removed.filter((r) => r.end > positionS).map((r) => Math.max(r.start, positionS));
  return from.length === 0 ? null : Math.min(...from);
}
