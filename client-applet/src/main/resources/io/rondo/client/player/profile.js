// The client profile declared in OPEN (papers/004 Sections 2.3 and 5): the most bytes a second
// this player takes and the buffer it holds them in. The page's address may set either
// (?rate=2M&buffer=16M, sizes in powers of 1024); otherwise the rate is measured and the buffer
// is what this device can spare and Media Source Extensions can hold ahead of the position. The
// server reserves less memory for a client whose buffer and rate are large (docs/client-buffers.md),
// and ends one that then takes its data slower than it declared, so both are what the player has.

import { KEEP_BEHIND_S } from './buffer.js';
import { parseSize } from './units.js';

/** What a SourceBuffer holds before the browser refuses more: 100 MB, Firefox's video quota (Chrome's is 150 MB). */
export const MSE_QUOTA_BYTES = 100 * 1000 * 1000;

/** The bytes MSE holds ahead of the position for a clip of bitsPerSecond: its quota less what is kept behind. */
export function mseAheadBytes(bitsPerSecond) {
  return Math.max(0, Math.floor(MSE_QUOTA_BYTES - KEEP_BEHIND_S * (bitsPerSecond ?? 0) / 8));
}

/** The declared rate's bounds, bytes a second: a measurement past them is taken as them. */
export const MIN_DECLARED_RATE = 64 * 1024;
export const MAX_DECLARED_RATE = 64 * 1024 * 1024;

/** The buffer a device of deviceMemoryGiB can spare: 8 MiB a GiB, from 16 MiB to 64 MiB. */
export function spareBufferBytes(deviceMemoryGiB) {
  return Math.min(64, Math.max(16, deviceMemoryGiB * 8)) * 1024 * 1024;
}

/** A measured receive rate, bytes a second, as declared: whole, within the bounds. */
export function declaredRate(bytesPerSecond) {
  return Math.round(Math.min(MAX_DECLARED_RATE, Math.max(MIN_DECLARED_RATE, bytesPerSecond)));
}

/**
 * The profile { rate, buffer, source } from the address's parameters, a device of
 * deviceMemoryGiB (4 where the browser does not say), measureRate() when the address sets no
 * rate, and the clip's peak bitsPerSecond, which takes its part of the MSE quota behind the
 * position (unknown: none).
 */
export async function chooseProfile(params, deviceMemoryGiB, measureRate, bitsPerSecond) {
  const rate = parseSize(params.get('rate'));
  const buffer = parseSize(params.get('buffer'));
  if (rate && buffer) {
    return { rate, buffer, source: 'set by the address' };
  }
  return {
    rate: rate ?? await measureRate(),
    buffer: buffer ?? Math.min(spareBufferBytes(deviceMemoryGiB ?? 4), mseAheadBytes(bitsPerSecond)),
    source: rate ? 'rate set by the address' : 'measured',
  };
}
