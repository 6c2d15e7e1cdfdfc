// The clip as the library serves it over HTTP: its address, its details for the player
// (/player/info/NAME), and a timed ranged GET of its first bytes that measures the receive rate
// the player declares.

import { declaredRate } from './profile.js';
import { formatBitRate, formatByteRate, formatBytes } from './units.js';

const PROBE_BYTES = 512 * 1024;
const GUESSED_RATE = 4 * 1024 * 1024;
const MEASURED_KEY = 'rondo.measuredRate';
const MEASURED_FOR_MS = 10 * 60 * 1000;

/** A catalog name as a URL path, each segment encoded. */
export function pathOf(name) {
  return name.split('/').map(encodeURIComponent).join('/');
}

/**
 * True if the clip has a picture to show: its MSE type, which ingest writes from the tracks it
 * found, is video/..., not audio/... (an audio-only clip gets the audio layout, no video box).
 */
export function hasVideo(info) {
  return !(info.mseType ?? info.mimeType ?? '').trim().toLowerCase().startsWith('audio/');
}

/** The clip's details: kind, MIME and MSE types, duration, size, bit rate and stream path. */
export async function fetchInfo(name) {
  const response = await fetch(`/player/info${pathOf(name)}`, { cache: 'no-cache' });
  if (response.status === 404) {
    throw new Error(`The library has no object named ${name}.`);
  }
  if (!response.ok) {
    throw new Error(`The server answered ${response.status} ${response.statusText} for the clip's details.`);
  }
  return response.json();
}

/**
 * The receive rate to declare, bytes a second: the time a GET of the clip's first 512 KiB takes
 * after its headers, reused for ten minutes of this browser session; 4 MiB/s if it fails.
 */
export async function measureRate(name, size, log) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(MEASURED_KEY) ?? 'null');
    if (saved && Date.now() - saved.at < MEASURED_FOR_MS) {
      return saved.rate;
    }
  } catch {
    // a stored value that does not parse is measured again
  }
  const bytes = Math.min(size, PROBE_BYTES);
  let rate = GUESSED_RATE;
  try {
    const response = await fetch(pathOf(name), { headers: { Range: `bytes=0-${bytes - 1}` }, cache: 'no-store' });
    const headersAt = performance.now();
    const body = await response.arrayBuffer();
    const seconds = Math.max((performance.now() - headersAt) / 1000, 0.002);
    rate = body.byteLength / seconds;
    log(`measured ${formatBitRate(rate * 8)} over ${formatBytes(body.byteLength)} by HTTP`);
  } catch (e) {
    log(`could not measure the receive rate (${e.message}); declaring ${formatByteRate(rate)}`, true);
  }
  rate = declaredRate(rate);
  try {
    sessionStorage.setItem(MEASURED_KEY, JSON.stringify({ rate, at: Date.now() }));
  } catch {
    // storage refused (private mode): measure again next time
  }
  return rate;
}
