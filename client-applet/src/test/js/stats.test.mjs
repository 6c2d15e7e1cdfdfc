// What the stats panel counts: bytes, fragments, the initial latency and the receive rate, a bit
// rate over the last four seconds. Times are stepped by hand (milliseconds).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlaybackStats, RATE_WINDOW_MS } from '../../main/resources/io/rondo/client/player/stats.js';

const connection = { openSentAtMs: 1000, acceptAtMs: 1040 };

test('the receive rate is the bits received over the last four seconds', () => {
  const stats = new PlaybackStats();
  assert.equal(RATE_WINDOW_MS, 4000);
  stats.received(2000, 500_000, connection);
  stats.received(3000, 500_000, connection);
  assert.equal(stats.receiveBitsPerSecond(3000), 2_000_000, '1,000,000 bytes in 4 s is 2 Mbit/s');
  assert.equal(stats.receiveBitsPerSecond(6000), 2_000_000, 'the first arrival is exactly 4 s old');
  assert.equal(stats.receiveBitsPerSecond(6001), 1_000_000, 'then it leaves the window');
  assert.equal(stats.receiveBitsPerSecond(7001), 0);
});

test('bytes and fragments add up over the page\'s life', () => {
  const stats = new PlaybackStats();
  stats.received(2000, 100, connection);
  stats.received(3000, 200, connection);
  assert.equal(stats.bytes, 300);
  assert.equal(stats.fragments, 2);
});

test('the initial latency is measured from OPEN to ACCEPT, the first DATA and the first picture', () => {
  const stats = new PlaybackStats();
  assert.equal(stats.latency, null);
  assert.equal(stats.pictureShown(1500, connection.openSentAtMs), false, 'no picture before any DATA');
  stats.received(1100, 100, connection);
  stats.received(1200, 100, { openSentAtMs: 1150, acceptAtMs: 1160 });
  assert.deepEqual(stats.latency, { accept: 40, firstData: 100, picture: null }, 'the first DATA fixes it');
  assert.equal(stats.pictureShown(1300, connection.openSentAtMs), true);
  assert.equal(stats.pictureShown(1400, connection.openSentAtMs), false, 'only the first picture counts');
  assert.equal(stats.latency.picture, 300);
});
