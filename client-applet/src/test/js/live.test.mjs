// A live object's window, as ACCEPT and LIVE frames tell it: the seek bar spans 0 to the live edge
// and grows, the delay is the edge minus the playing position, a jump to live lands on its first
// fragment, and LIVE ENDED makes the object an ordinary one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstStart, LiveWindow } from '../../main/resources/io/rondo/client/player/live.js';

const S = 1e9;

function liveWindow(recordedNs = 0) {
  const window = new LiveWindow();
  window.accepted({ live: true });
  window.update({ recordedNs, durableNs: Math.max(0, recordedNs - S), ended: false });
  return window;
}

test('the first stream starts at the live edge of an object being recorded, or behind it if asked', () => {
  const none = new URLSearchParams('src=/cams/door.webm');
  assert.deepEqual(firstStart(none, { live: true }), { ns: 0, fromLive: true });
  assert.deepEqual(firstStart(none, { durationNs: 60 * S }), { ns: 0, fromLive: false }, 'an ordinary clip');
  assert.deepEqual(firstStart(new URLSearchParams('behind=20'), {}), { ns: 20 * S, fromLive: true });
  assert.deepEqual(firstStart(new URLSearchParams('behind=2.5'), { live: true }), { ns: 2.5 * S, fromLive: true });
  assert.deepEqual(firstStart(new URLSearchParams('behind=soon'), {}), { ns: 0, fromLive: false },
    'a behind that is no number is ignored');
});

test('the seek bar spans the recorded window while live, and grows with each LIVE', () => {
  const window = liveWindow(30 * S);
  assert.equal(window.windowS(12), 30, 'the edge, not the duration the library gave when the page loaded');
  window.update({ recordedNs: 31 * S, durableNs: 30 * S, ended: false });
  assert.equal(window.windowS(12), 31);
  window.update({ recordedNs: 29 * S, durableNs: 29 * S, ended: false });
  assert.equal(window.windowS(12), 31, 'the edge never moves back');
  const ordinary = new LiveWindow();
  ordinary.accepted({ live: false });
  assert.equal(ordinary.windowS(12), 12);
  assert.equal(ordinary.view(5, 1), null, 'nothing live to show');
});

test('the delay is the live edge minus the playing position; within three fragments is at the edge', () => {
  const window = liveWindow(40 * S);
  assert.equal(window.delayS(20), 20);
  assert.deepEqual(window.view(20, 1), { atEdge: false, delayS: 20 });
  assert.deepEqual(window.view(37, 1), { atEdge: true, delayS: 3 });
  assert.equal(window.atEdge(36.9, 1), false);
  assert.equal(window.atEdge(34, 2), true, 'three fragments of 2 s');
  assert.equal(window.delayS(41), 0, 'never negative');
});

test('a seek into the newest fragment of the window is a jump to live', () => {
  const window = liveWindow(40 * S);
  assert.equal(window.isEdge(39.5, 1), true);
  assert.equal(window.isEdge(39, 1), true);
  assert.equal(window.isEdge(38.9, 1), false, 'timeshift');
  window.update({ recordedNs: 40 * S, durableNs: 40 * S, ended: true });
  assert.equal(window.isEdge(39.5, 1), false, 'after the recording ended a seek is a seek');
});

test('after a jump to live the playing position lands on the first fragment once it is held', () => {
  const window = liveWindow(40 * S);
  assert.equal(window.landOn([{ start: 0, end: 10 }]), null, 'no jump asked');
  window.landing = true;
  window.kept(38 * S);
  assert.equal(window.landing, false);
  assert.equal(window.landOn([{ start: 0, end: 10 }]), null, 'not held yet');
  assert.equal(window.landOn([{ start: 0, end: 10 }, { start: 38.02, end: 39 }]), 38.02,
    'the start of what is held, a few milliseconds after the fragment\'s time');
  assert.equal(window.landOn([{ start: 0, end: 10 }, { start: 38.02, end: 39 }]), null, 'landed once');
  window.landing = true;
  window.kept(12 * S);
  assert.equal(window.landOn([{ start: 11, end: 13 }]), 12);
  window.kept(20 * S);
  assert.equal(window.landOn([{ start: 11, end: 21 }]), null, 'only the first fragment after the jump');
});

test('LIVE ENDED makes the object an ordinary one', () => {
  const window = liveWindow(40 * S);
  window.update({ recordedNs: 42 * S, durableNs: 42 * S, ended: true });
  assert.equal(window.live, false);
  assert.equal(window.recordedNs, 42 * S);
  assert.equal(window.windowS(42), 42);
  assert.equal(window.delayS(10), 0);
  assert.equal(window.view(10, 1), null);
});
