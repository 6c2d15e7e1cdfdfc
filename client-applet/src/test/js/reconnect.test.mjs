// The player's way round a cluster: REDIRECTs followed at most three in a row, a lost connection
// tried again with a doubling backoff, the position it reopens at, and the gap each loss leaves.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_REDIRECTS, nextFragmentNs, objectStreamPath, Reconnector,
} from '../../main/resources/io/rondo/client/player/reconnect.js';

test('the stream URL names the object, each segment percent-encoded as the object\'s own URL', () => {
  assert.equal(objectStreamPath('/stream', 'films/my clip [hd].webm'), '/stream/films/my%20clip%20%5Bhd%5D.webm');
  assert.equal(objectStreamPath('/stream', '/caf\u00e9 100%.webm'), '/stream/caf%C3%A9%20100%25.webm');
});

test('a lost stream opens again at the fragment after the playing one', () => {
  assert.equal(nextFragmentNs(12.4e9, 1e9), 13e9);
  assert.equal(nextFragmentNs(0, 1e9), 1e9);
  assert.equal(nextFragmentNs(3e9, 1e9), 4e9, 'the playing fragment is held already');
});

test('REDIRECTs are followed three in a row, and the count starts again once an OPEN is answered', () => {
  const r = new Reconnector();
  for (let i = 0; i < MAX_REDIRECTS; i++) {
    assert.equal(r.redirected(), true);
  }
  assert.equal(r.redirected(), false, 'the fourth in a row: the nodes send it round');
  r.answered();
  assert.equal(r.redirected(), true);
});

test('a loss is tried again after a backoff that doubles, until the attempts run out', () => {
  const r = new Reconnector({ attempts: 3, backoffMs: 500 });
  assert.equal(r.resuming, false);
  assert.equal(r.lost(1000, 'code 1006'), 500);
  assert.equal(r.resuming, true);
  assert.equal(r.attempt, 1);
  assert.equal(r.lost(1600, 'refused'), 1000, 'a failed attempt waits twice as long');
  assert.equal(r.lost(2700, 'refused'), 2000);
  assert.equal(r.lost(4800, 'refused'), null, 'no attempt left: the stream is lost');
});

test('the first DATA after a loss closes its gap, measured from the loss, and the attempts are whole again', () => {
  const r = new Reconnector({ attempts: 2, backoffMs: 250 });
  assert.equal(r.data(500), null, 'no gap without a loss');
  r.lost(1000, 'the server closed the connection (code 1006)');
  r.lost(1300, 'refused');
  assert.deepEqual(r.data(2250), { lengthMs: 1250, cause: 'the server closed the connection (code 1006)' });
  assert.equal(r.resuming, false);
  assert.equal(r.data(3000), null);
  assert.equal(r.lost(4000, 'again'), 250, 'a later loss has every attempt again');
  r.data(4400);
  assert.equal(r.summary(), '2 (longest 1.3 s)');
  assert.equal(new Reconnector().summary(), '0');
});

test('starting over forgets a pending loss', () => {
  const r = new Reconnector({ attempts: 1 });
  r.lost(0, 'x');
  r.reset();
  assert.equal(r.resuming, false);
  assert.equal(r.lost(10, 'y'), 500);
});
