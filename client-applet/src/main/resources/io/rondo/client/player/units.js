// How the player writes sizes, rates and times for a person, and reads the sizes an address gives.
// Bytes (sizes, buffers, and byte rates such as the receive rate declared in OPEN) count in powers
// of 1024 with IEC symbols; bit rates (a clip's bit rate, a measured receive rate) in powers of
// 1000, as networking counts them. Every figure on the page goes through here, so no place mixes
// the two.

const BYTES = ['B', 'KiB', 'MiB', 'GiB'];
const BITS_PER_SECOND = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s'];

/**
 * value in the largest unit it reaches, whole in the first unit and to a tenth in the others; a
 * value that rounds up to the next unit (1023.96 B) is written in it (1.0 KiB).
 */
function scaled(value, base, units) {
  let unit = 0;
  let shown = Math.round(value);
  while (unit < units.length - 1 && Math.abs(shown) >= base) {
    value /= base;
    unit++;
    shown = Number(value.toFixed(1));
  }
  return unit === 0 ? `${shown} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** 1536 -> "1.5 KiB"; 512 -> "512 B". */
export function formatBytes(bytes) {
  return scaled(bytes, 1024, BYTES);
}

/** Bytes a second, in powers of 1024: 2097152 -> "2.0 MiB/s". */
export function formatByteRate(bytesPerSecond) {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Bits a second, in powers of 1000: 4000000 -> "4.0 Mbit/s". */
export function formatBitRate(bitsPerSecond) {
  return scaled(bitsPerSecond, 1000, BITS_PER_SECOND);
}

/** 75.4 -> "1:15". */
export function formatTime(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) {
    return '0:00';
  }
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A size in bytes as an address writes it, in powers of 1024: "2M", "2MiB", "512k", "8388608";
 * null when absent or not a size.
 */
export function parseSize(text) {
  if (text == null || text === '') {
    return null;
  }
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(text.trim());
  if (!match) {
    return null;
  }
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase()];
  return Math.round(Number(match[1]) * scale);
}
