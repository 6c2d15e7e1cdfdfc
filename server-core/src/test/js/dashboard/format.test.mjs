// The dashboard writes the admin API's figures in the project's units (bytes in powers of 1024
// with IEC symbols, bit rates in powers of 1000), and reads the sizes and rates typed into the
// policy form the same way.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DASH, formatBitRate, formatBytes, formatClock, formatLateness, formatMs, formatPosition, formatShare, formatUptime,
  parseBitRate, parseBytes,
} from '../../../main/resources/io/rondo/server/admin/dashboard/format.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

test('sizes are powers of 1024 with IEC symbols, rounding up into the next unit', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(123), '123 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(16 * MiB), '16.0 MiB');
  assert.equal(formatBytes(3 * GiB), '3.0 GiB', 'the default buffer ceiling');
  assert.equal(formatBytes(MiB - 20), '1.0 MiB', 'not "1024.0 KiB"');
  assert.equal(formatBytes(1_000_000), '976.6 KiB');
});

test('bit rates are powers of 1000', () => {
  assert.equal(formatBitRate(640), '640 bit/s');
  assert.equal(formatBitRate(1e9), '1.0 Gbit/s');
  assert.equal(formatBitRate(8 * MiB), '8.4 Mbit/s');
  assert.equal(formatBitRate(999_990), '1.0 Mbit/s');
});

test('a figure the API leaves null is a dash', () => {
  for (const format of [formatBytes, formatBitRate, formatMs, formatShare, formatPosition, formatUptime,
    formatLateness, formatClock]) {
    assert.equal(format(null), DASH, format.name);
  }
});

test('milliseconds keep a tenth while small', () => {
  assert.equal(formatMs(2.04), '2.0 ms');
  assert.equal(formatMs(99.94), '99.9 ms');
  assert.equal(formatMs(870.5), '871 ms');
  assert.equal(formatMs(1800), '1800 ms');
  assert.equal(formatMs(-120.25), '-120 ms', 'a negative slack');
});

test('a stream\'s lateness says whether it was sent early or late', () => {
  assert.equal(formatLateness(-950.2), '950 ms early');
  assert.equal(formatLateness(12), '12.0 ms late');
  assert.equal(formatLateness(0), '0.0 ms early', 'on its deadline is not late');
});

test('shares, positions and uptimes read as a person says them', () => {
  assert.equal(formatShare(0.12), '12.0 %');
  assert.equal(formatShare(0.2), '20.0 %');
  assert.equal(formatPosition(12), '0:12');
  assert.equal(formatPosition(75.4), '1:15');
  assert.equal(formatPosition(3662), '1:01:02');
  assert.equal(formatUptime(12.5), '12 s');
  assert.equal(formatUptime(725), '12 min 5 s');
  assert.equal(formatUptime(3 * 3600 + 4 * 60), '3 h 4 min');
  assert.equal(formatUptime(2 * 86400 + 5 * 3600), '2 d 5 h');
});

test('an API timestamp is shown as the clock time it names', () => {
  assert.equal(formatClock('2026-11-23T18:00:05Z', 'UTC'), '18:00:05');
  assert.equal(formatClock('2026-11-23T18:00:05Z', 'Europe/Berlin'), '19:00:05');
});

test('a size typed into the form is read in powers of 1024, in whatever way the form wrote it', () => {
  assert.equal(parseBytes('3221225472'), 3 * GiB);
  assert.equal(parseBytes('3 GiB'), 3 * GiB);
  assert.equal(parseBytes('3.0 GiB'), 3 * GiB, 'what formatBytes writes');
  assert.equal(parseBytes('3G'), 3 * GiB);
  assert.equal(parseBytes('512m'), 512 * MiB);
  assert.equal(parseBytes(' 1.5 GB '), 1.5 * GiB);
  assert.equal(parseBytes('100 B'), 100);
  for (const text of ['', 'lots', '-1G', '3 GiB please', '1e9', null]) {
    assert.equal(parseBytes(text), null, String(text));
  }
});

test('a rate typed into the form is read in powers of 1000', () => {
  assert.equal(parseBitRate('1000000'), 1e6);
  assert.equal(parseBitRate('1.0 Gbit/s'), 1e9, 'what formatBitRate writes');
  assert.equal(parseBitRate('500M'), 5e8);
  assert.equal(parseBitRate('100 Mbps'), 1e8);
  assert.equal(parseBitRate('2.5 kbit/s'), 2500);
  for (const text of ['', 'fast', '-5M', '5 MiB', null]) {
    assert.equal(parseBitRate(text), null, String(text));
  }
});
