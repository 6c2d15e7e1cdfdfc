// The player's figures follow the project's unit convention: bytes and byte rates in powers of
// 1024 with IEC symbols, bit rates in powers of 1000 in kbit/s, Mbit/s, Gbit/s.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatBitRate, formatByteRate, formatBytes, formatTime, parseSize,
} from '../../main/resources/io/rondo/client/player/units.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

test('sizes are written in powers of 1024 with IEC symbols', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(KiB), '1.0 KiB');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(16 * MiB), '16.0 MiB');
  assert.equal(formatBytes(3 * GiB), '3.0 GiB');
  assert.equal(formatBytes(1_000_000), '976.6 KiB', 'a million bytes is not written as 1 MB');
});

test('a size that rounds up to the next unit is written in that unit', () => {
  assert.equal(formatBytes(MiB - 20), '1.0 MiB', 'not "1024.0 KiB"');
  assert.equal(formatBytes(2048 * GiB), '2048.0 GiB', 'GiB is the largest unit');
});

test('byte rates, such as the declared receive rate, are KiB/s and MiB/s', () => {
  assert.equal(formatByteRate(KiB), '1.0 KiB/s');
  assert.equal(formatByteRate(2 * MiB), '2.0 MiB/s');
  assert.equal(formatByteRate(2_500_000), '2.4 MiB/s');
  assert.equal(formatByteRate(640), '640 B/s');
});

test('bit rates are written in powers of 1000 as kbit/s, Mbit/s and Gbit/s', () => {
  assert.equal(formatBitRate(640), '640 bit/s');
  assert.equal(formatBitRate(1000), '1.0 kbit/s');
  assert.equal(formatBitRate(128_000), '128.0 kbit/s');
  assert.equal(formatBitRate(4_000_000), '4.0 Mbit/s');
  assert.equal(formatBitRate(2.5e9), '2.5 Gbit/s');
  assert.equal(formatBitRate(8 * MiB), '8.4 Mbit/s', '2^23 bits a second is 8.4 decimal megabits');
  assert.equal(formatBitRate(999_990), '1.0 Mbit/s', 'not "1000.0 kbit/s"');
});

test('no figure is written with a decimal byte symbol', () => {
  for (const value of [1, 999, 1000, 1024, 1e6, MiB, 1e9, GiB]) {
    for (const text of [formatBytes(value), formatByteRate(value), formatBitRate(value)]) {
      assert.doesNotMatch(text, /\b(kB|KB|MB|GB)\b/, text);
    }
  }
});

test('times are minutes and seconds, with hours past the hour', () => {
  assert.equal(formatTime(0), '0:00');
  assert.equal(formatTime(75.4), '1:15');
  assert.equal(formatTime(3600 + 62), '1:01:02');
  assert.equal(formatTime(-1), '0:00');
  assert.equal(formatTime(NaN), '0:00');
});

test('sizes in an address are read in powers of 1024', () => {
  assert.equal(parseSize('8388608'), 8388608);
  assert.equal(parseSize('1k'), KiB);
  assert.equal(parseSize('512K'), 512 * KiB);
  assert.equal(parseSize('512KiB'), 512 * KiB);
  assert.equal(parseSize('2M'), 2 * MiB);
  assert.equal(parseSize('2MiB'), 2 * MiB);
  assert.equal(parseSize(' 16m '), 16 * MiB);
  assert.equal(parseSize('1.5G'), 1.5 * GiB);
});

test('an absent or unreadable size is no size', () => {
  for (const text of [null, undefined, '', 'fast', '2X', '-1M', '2 M bytes']) {
    assert.equal(parseSize(text), null, String(text));
  }
});
