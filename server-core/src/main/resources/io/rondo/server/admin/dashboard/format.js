// How the dashboard writes the admin API's figures for a person, and reads the sizes and rates
// typed into the policy form. The project's unit convention: bytes in powers of 1024 with IEC
// symbols, bit rates in powers of 1000. A missing figure (the API's null) is a dash.

export const DASH = '\u2013';

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
const BIT_RATE_UNITS = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s'];

/**
 * value / base^k in the largest unit k it reaches; whole numbers in the first unit, tenths in
 * the others (a value that would show as base tenths of one unit is written in the next).
 */
function inUnits(value, base, units) {
  const sign = value < 0 ? '-' : '';
  let rest = Math.abs(value);
  let k = 0;
  while (k < units.length - 1 && (k === 0 ? Math.round(rest) : Number(rest.toFixed(1))) >= base) {
    rest /= base;
    k++;
  }
  return `${sign}${k === 0 ? Math.round(rest) : rest.toFixed(1)} ${units[k]}`;
}

/** 3221225472 -> "3.0 GiB"; null -> a dash. */
export function formatBytes(bytes) {
  return bytes == null ? DASH : inUnits(bytes, 1024, BYTE_UNITS);
}

/** 1e9 -> "1.0 Gbit/s"; null -> a dash. */
export function formatBitRate(bitsPerSecond) {
  return bitsPerSecond == null ? DASH : inUnits(bitsPerSecond, 1000, BIT_RATE_UNITS);
}

/** Milliseconds to a tenth below 100 ms, whole above: 2.04 -> "2.0 ms", 870.5 -> "871 ms". */
export function formatMs(ms) {
  if (ms == null) {
    return DASH;
  }
  return `${Math.abs(ms) < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

/** A share of a round: 0.125 -> "12.5 %". */
export function formatShare(share) {
  return share == null ? DASH : `${(share * 100).toFixed(1)} %`;
}

/** A stream's position: 75.4 -> "1:15"; past the hour "1:01:02". */
export function formatPosition(seconds) {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) {
    return DASH;
  }
  const whole = Math.floor(seconds);
  const two = (n) => String(n).padStart(2, '0');
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** An uptime: "45 s", "12 min 5 s", "3 h 4 min", "2 d 5 h". */
export function formatUptime(seconds) {
  if (seconds == null) {
    return DASH;
  }
  const s = Math.floor(seconds);
  if (s < 60) {
    return `${s} s`;
  }
  if (s < 3600) {
    return `${Math.floor(s / 60)} min ${s % 60} s`;
  }
  if (s < 86400) {
    return `${Math.floor(s / 3600)} h ${Math.floor(s / 60) % 60} min`;
  }
  return `${Math.floor(s / 86400)} d ${Math.floor(s / 3600) % 24} h`;
}

/**
 * A stream's worst lateness (ms after a fragment's deadline that it was sent; negative is ahead
 * of it): -950.2 -> "950 ms early", 12 -> "12.0 ms late".
 */
export function formatLateness(ms) {
  if (ms == null) {
    return DASH;
  }
  return ms > 0 ? `${formatMs(ms)} late` : `${formatMs(-ms)} early`;
}

/** The clock time of an API timestamp in the page's time zone, "18:00:05"; a dash if absent. */
export function formatClock(iso, timeZone) {
  if (!iso) {
    return DASH;
  }
  return new Date(iso).toLocaleTimeString('en-GB', { hour12: false, timeZone });
}

/** Reads "3 GiB", "3G", "512k", "1.5 MiB" or "8388608" as bytes (powers of 1024); null if it is not a size. */
export function parseBytes(text) {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([kmgt])(?:i?b)?|b)?$/i.exec(String(text ?? '').trim());
  if (!match) {
    return null;
  }
  const power = match[2] ? 'kmgt'.indexOf(match[2].toLowerCase()) + 1 : 0;
  return Math.round(Number(match[1]) * 1024 ** power);
}

/** Reads "1 Gbit/s", "500M", "100 Mbps" or "1000000" as bits a second (powers of 1000); null if it is not a rate. */
export function parseBitRate(text) {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([kmgt])?(?:bit\/s|bps|b\/s)?)$/i.exec(String(text ?? '').trim());
  if (!match) {
    return null;
  }
  const power = match[2] ? 'kmgt'.indexOf(match[2].toLowerCase()) + 1 : 0;
  return Math.round(Number(match[1]) * 1000 ** power);
}
