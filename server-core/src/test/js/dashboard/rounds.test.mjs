// The slack chart's rounds (papers/000, Figure 2): five minutes of each disk's newest rounds,
// seeded from the disks resource and fed by the round events, which overlap the seed; each round
// is drawn once, in round order, and a disk's overruns are marked where they happened.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RoundHistory, overrunsText, roundsInSpan, spanText } from '../../../main/resources/io/rondo/server/admin/dashboard/rounds.js';

const round = (disk, n, slackMs, overrun = false) => ({ disk, round: n, lengthMs: 1000, slackMs, overrun });

test('five minutes of rounds are 300 one-second rounds, or 600 half-second ones', () => {
  assert.equal(roundsInSpan(1000), 300);
  assert.equal(roundsInSpan(500), 600);
  assert.equal(roundsInSpan(700), 429, 'a part-filled last round still counts');
});

test('a round event that repeats a seeded round, or comes older than the newest, is not drawn twice', () => {
  const history = new RoundHistory(10);
  [1, 2, 3].forEach((n) => history.add(round('sda', n, 800)));
  assert.equal(history.add(round('sda', 3, 800)), false);
  assert.equal(history.add(round('sda', 2, 800)), false);
  assert.equal(history.add(round('sda', 4, 790)), true);
  assert.deepEqual(history.rounds('sda').map((r) => r.round), [1, 2, 3, 4]);
});

test('past the span the oldest rounds give way to the newest', () => {
  const history = new RoundHistory(300);
  for (let n = 1; n <= 1000; n++) {
    history.add(round('sda', n, 1000 - n));
  }
  const rounds = history.rounds('sda');
  assert.equal(rounds.length, 300);
  assert.equal(rounds[0].round, 701);
  assert.equal(rounds.at(-1).round, 1000);
  assert.ok(rounds.every((r, i) => i === 0 || r.round === rounds[i - 1].round + 1), 'in round order');
});

test('each disk keeps its own rounds; the chart\'s columns line them up by round number', () => {
  const history = new RoundHistory(300);
  history.add(round('sda', 10, 870.5));
  history.add(round('sdb', 10, 400));
  history.add(round('sda', 11, -120, true));
  history.add(round('sdb', 12, 390));
  assert.deepEqual(history.columns(['sda', 'sdb']), {
    x: [10, 11, 12],
    slack: [[870.5, -120, null], [400, null, 390]],
    overruns: [[null, -120, null], [null, null, null]],
  });
});

test('a disk that sent no round yet has an empty line, and a restarted server\'s rounds start afresh', () => {
  const history = new RoundHistory(300);
  history.add(round('sda', 5000, 800));
  assert.deepEqual(history.columns(['sda', 'sdb']).slack[1], [null]);
  assert.equal(history.add(round('sda', 1, 800)), false, 'round 1 is older than round 5000');
  history.clear();
  assert.equal(history.add(round('sda', 1, 800)), true);
  assert.deepEqual(history.rounds('sda').map((r) => r.round), [1]);
});

test('the span and the legend name the same rounds while fewer than the span are recorded', () => {
  const history = new RoundHistory(roundsInSpan(1000));
  for (let n = 1; n <= 66; n++) {
    history.add(round('sda', n, 500));
  }
  const { x, overruns } = history.columns(['sda']);
  assert.equal(spanText(x.length, history.capacity, 1000),
    'Shown: the last 66 rounds of 1000 ms (up to 300 as they come)');
  assert.equal(overrunsText(overruns[0].filter((v) => v !== null).length, x.length),
    '0 overruns in the last 66 rounds');
  assert.equal(spanText(1, 300, 1000), 'Shown: the last 1 round of 1000 ms (up to 300 as they come)');
  assert.equal(overrunsText(1, 1), '1 overrun in the last 1 round');
});

test('once the span is full the heading says the last span of rounds, as the legend does', () => {
  const history = new RoundHistory(300);
  for (let n = 1; n <= 400; n++) {
    history.add(round('sda', n, 500, n === 390));
  }
  const { x } = history.columns(['sda']);
  assert.equal(spanText(x.length, history.capacity, 1000), 'Shown: the last 300 rounds of 1000 ms');
  assert.equal(overrunsText(1, x.length), '1 overrun in the last 300 rounds');
});
