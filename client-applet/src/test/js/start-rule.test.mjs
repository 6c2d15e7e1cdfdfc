// When the player may start: far enough behind the newest fragment's deadline that every later
// fragment, due a round after the one before, comes before it is shown. The stream's clock is
// stepped by hand; each rule is checked a nanosecond before its moment and at it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  deadlinesAllowStart, mayStart, newestAfterResume, startThresholdS,
} from '../../main/resources/io/rondo/client/player/start-rule.js';

const S = 1e9;
const ROUND_NS = 1 * S;

test('playing waits for one fragment held ahead, or for what is left of the clip', () => {
  assert.equal(startThresholdS(ROUND_NS, 60), 1);
  assert.equal(startThresholdS(2 * S, 60), 2);
  assert.equal(startThresholdS(undefined, 60), 1, 'before ACCEPT a fragment is taken as a second');
  assert.ok(Math.abs(startThresholdS(ROUND_NS, 0.7) - 0.5) < 1e-9, '0.7 s left: 0.5 s is enough');
  assert.equal(startThresholdS(ROUND_NS, 0.1), 0, 'at the very end nothing more is needed');
});

// The newest fragment is shown 2 s after the position and was due at 3 s on the stream's clock:
// playing may start once the clock reads 1 s.
const newest = { presentationNs: 10 * S, deadlineNs: 3 * S };
const positionNs = 8 * S;

test('playing may start once the newest fragment is due no later than it is shown', () => {
  assert.equal(deadlinesAllowStart(newest, 1 * S - 1, positionNs), false, 'a nanosecond early');
  assert.equal(deadlinesAllowStart(newest, 1 * S, positionNs), true, 'at the moment');
  assert.equal(deadlinesAllowStart(newest, 5 * S, positionNs), true, 'and later');
});

test('without a newest fragment or a stream clock nothing is promised', () => {
  assert.equal(deadlinesAllowStart(null, 100 * S, positionNs), false);
  assert.equal(deadlinesAllowStart(undefined, 100 * S, positionNs), false);
  assert.equal(deadlinesAllowStart(newest, null, positionNs), false);
});

/**
 * Plays from positionNs, started at startClockNs, while the server sends fragment k after the
 * newest at its deadline, the latest it may: the stream-clock times fragments came after they
 * were due to be shown (none when playback never stalls).
 */
function stallsWhenStartedAt(startClockNs) {
  const late = [];
  for (let k = 1; k <= 30; k++) {
    const arrivesNs = newest.deadlineNs + k * ROUND_NS;
    const shownNs = startClockNs + (newest.presentationNs + k * ROUND_NS - positionNs);
    if (arrivesNs > shownNs) {
      late.push(arrivesNs - shownNs);
    }
  }
  return late;
}

/** The first moment the rule lets playing start, the stream's clock stepped a millisecond at a time. */
function firstAllowedClockNs() {
  let clockNs = 0;
  while (!deadlinesAllowStart(newest, clockNs, positionNs)) {
    clockNs += 1e6;
  }
  return clockNs;
}

test('a start the rule allows never stalls while the server keeps its deadlines', () => {
  const startNs = firstAllowedClockNs();
  assert.equal(startNs, 1 * S);
  assert.deepEqual(stallsWhenStartedAt(startNs), []);
  assert.deepEqual(stallsWhenStartedAt(startNs + 0.5 * S), []);
});

test('a start a millisecond before the rule allows stalls on fragments sent at their deadlines', () => {
  assert.equal(stallsWhenStartedAt(firstAllowedClockNs() - 1e6).length, 30, 'every later fragment is late');
});

test('after RESUME, playing waits until what is held covers the three rounds to the next fragment', () => {
  // Paused at 10 s, held to 12 s; RESUME at 5 s on the stream's clock.
  const promised = newestAfterResume(5 * S, ROUND_NS, 12);
  assert.deepEqual(promised, { deadlineNs: 8 * S, presentationNs: 12 * S });
  assert.equal(deadlinesAllowStart(promised, 6 * S - 1, 10 * S), false, 'two seconds held, three to wait');
  assert.equal(deadlinesAllowStart(promised, 6 * S, 10 * S), true, 'a second later the wait is covered');
  assert.equal(deadlinesAllowStart(newestAfterResume(5 * S, ROUND_NS, 13), 5 * S, 10 * S), true,
    'three seconds held cover it at once');
});

const ready = {
  allBuffered: false, aheadS: 2, positionS: 8, durationS: 60, fragmentDurationNs: ROUND_NS, newest,
  streamClockNs: 1 * S,
};

test('the start rule wants both enough held and the deadlines', () => {
  assert.equal(mayStart(ready), true);
  assert.equal(mayStart({ ...ready, aheadS: 0.9 }), false, 'less than a fragment held');
  assert.equal(mayStart({ ...ready, streamClockNs: 1 * S - 1 }), false, 'deadlines not yet');
  assert.equal(mayStart({ ...ready, newest: null }), false, 'no fragment since the seek');
});

test('with the rest of the clip held, playing starts whatever the deadlines', () => {
  assert.equal(mayStart({ ...ready, allBuffered: true, aheadS: 0, newest: null, streamClockNs: null }), true);
});

test('near the end of the clip what is left is enough', () => {
  const nearEnd = {
    ...ready, positionS: 59.5, durationS: 60, aheadS: 0.4, newest: { presentationNs: 59 * S, deadlineNs: 0 },
  };
  assert.equal(mayStart(nearEnd), true);
  assert.equal(mayStart({ ...nearEnd, aheadS: 0.2 }), false);
});
