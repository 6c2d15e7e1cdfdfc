// What the player holds: the buffer level it shows and reports, whether a seek plays from what is
// held, what it drops 20 s behind the position, and the bytes REPORT tells the server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bufferedAheadS, dropUntilS, HeldFragments, holds, KEEP_BEHIND_S, rangesOf,
} from '../../main/resources/io/rondo/client/player/buffer.js';

const S = 1e9;

/** A TimeRanges as the browser gives it, from [start, end] pairs. */
function timeRanges(...pairs) {
  return { length: pairs.length, start: (i) => pairs[i][0], end: (i) => pairs[i][1] };
}

test('a TimeRanges is read as plain ranges', () => {
  assert.deepEqual(rangesOf(timeRanges([0, 4], [10, 12.5])), [{ start: 0, end: 4 }, { start: 10, end: 12.5 }]);
  assert.deepEqual(rangesOf(timeRanges()), []);
});

test('the buffer level is what the range holding the position holds after it', () => {
  const ranges = rangesOf(timeRanges([0, 4], [10, 12.5]));
  assert.equal(bufferedAheadS(ranges, 1), 3);
  assert.equal(bufferedAheadS(ranges, 11), 1.5);
  assert.equal(bufferedAheadS(ranges, 4), 0, 'at a range\'s end nothing is ahead');
  assert.equal(bufferedAheadS(ranges, 6), 0, 'between ranges nothing is ahead');
  assert.equal(bufferedAheadS([], 6), 0);
});

test('a range starting just after the position holds it: the decoder skips a small gap', () => {
  const ranges = [{ start: 10, end: 12 }];
  assert.equal(bufferedAheadS(ranges, 9.75), 2.25);
  assert.equal(bufferedAheadS(ranges, 9.6), 0, 'a gap of 0.4 s is a gap');
});

test('a seek plays from what is held only with a second held after its target', () => {
  const ranges = [{ start: 5, end: 15 }];
  const notAll = { allBuffered: false, durationS: 60 };
  assert.equal(holds(ranges, 5, notAll), true);
  assert.equal(holds(ranges, 14, notAll), true);
  assert.equal(holds(ranges, 14.5, notAll), false, 'half a second held: the server is asked');
  assert.equal(holds(ranges, 4.9, notAll), false, 'before what is held');
  assert.equal(holds(ranges, 20, notAll), false, 'after what is held');
});

test('once the whole rest of the clip is held, a seek into its last second plays from it', () => {
  const ranges = [{ start: 40, end: 59.8 }];
  assert.equal(holds(ranges, 59.5, { allBuffered: true, durationS: 60 }), true);
  assert.equal(holds(ranges, 59.5, { allBuffered: false, durationS: 60 }), false, 'the stream has not ended');
  assert.equal(holds([{ start: 40, end: 59 }], 58.5, { allBuffered: true, durationS: 60 }), false,
    'a range that stops a second short is not the clip\'s end');
});

test('media more than 20 s behind the position is dropped', () => {
  assert.equal(KEEP_BEHIND_S, 20);
  const ranges = [{ start: 0, end: 40 }];
  assert.equal(dropUntilS(ranges, 30, false), 10);
  assert.equal(dropUntilS(ranges, 22, false), 2);
  assert.equal(dropUntilS(ranges, 21, false), null, 'not a whole second to drop');
  assert.equal(dropUntilS([{ start: 10, end: 40 }], 31, false), null, 'what is held starts 21 s behind');
  assert.equal(dropUntilS([], 30, false), null, 'nothing held');
});

test('when the browser\'s quota is full only 2 s behind the position are kept', () => {
  assert.equal(dropUntilS([{ start: 0, end: 40 }], 10, true), 8);
  assert.equal(dropUntilS([{ start: 0, end: 40 }], 2.5, true), null);
});

/** Ten one-second fragments of 100, 200, ... 1000 bytes, from 0 s. */
function tenFragments() {
  const held = new HeldFragments();
  for (let i = 0; i < 10; i++) {
    held.add(i * S, (i + 1) * 100);
  }
  return held;
}

test('REPORT counts the bytes of the fragment playing and all after it', () => {
  const held = tenFragments();
  assert.equal(held.bytesFrom(0, S), 5500, 'all ten');
  assert.equal(held.bytesFrom(5.5 * S, S), 600 + 700 + 800 + 900 + 1000, 'fragment 5, playing, and after');
  assert.equal(held.bytesFrom(5 * S, S), 500 + 600 + 700 + 800 + 900 + 1000, 'at 5 s the fragment before counts');
  assert.equal(held.bytesFrom(20 * S, S), 0, 'past the end');
});

test('dropped media is no longer counted as held', () => {
  const held = tenFragments();
  held.dropBefore(3 * S);
  assert.equal(held.bytesFrom(0, S), 5500 - 100 - 200 - 300);
  held.dropBefore(3 * S);
  assert.equal(held.bytesFrom(0, S), 4900, 'dropping again drops nothing more');
});
