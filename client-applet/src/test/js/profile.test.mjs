// The client profile the player declares in OPEN: what the address sets, or a measured rate and
// the buffer the device can spare.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chooseProfile, declaredRate, MAX_DECLARED_RATE, MIN_DECLARED_RATE, MSE_QUOTA_BYTES, mseAheadBytes, spareBufferBytes,
} from '../../main/resources/io/rondo/client/player/profile.js';

const MiB = 1024 * 1024;

function measuring(rate) {
  const measure = () => {
    measure.calls++;
    return Promise.resolve(rate);
  };
  measure.calls = 0;
  return measure;
}

test('an address that sets rate and buffer is declared as it is, without measuring', async () => {
  const measure = measuring(5 * MiB);
  const profile = await chooseProfile(new URLSearchParams('src=/a.webm&rate=2M&buffer=16M'), 8, measure);
  assert.deepEqual(profile, { rate: 2 * MiB, buffer: 16 * MiB, source: 'set by the address' });
  assert.equal(measure.calls, 0);
});

test('an address that sets only the rate keeps the device\'s spare buffer', async () => {
  const profile = await chooseProfile(new URLSearchParams('rate=1k'), 4, measuring(5 * MiB));
  assert.deepEqual(profile, { rate: 1024, buffer: 32 * MiB, source: 'rate set by the address' });
});

test('without a rate in the address the rate is measured', async () => {
  const measure = measuring(3 * MiB);
  const profile = await chooseProfile(new URLSearchParams('buffer=8M'), 4, measure);
  assert.deepEqual(profile, { rate: 3 * MiB, buffer: 8 * MiB, source: 'measured' });
  assert.equal(measure.calls, 1);
});

test('a device spares 8 MiB a GiB of memory, from 16 MiB to 64 MiB; 4 GiB when it does not say', async () => {
  assert.equal(spareBufferBytes(0.5), 16 * MiB);
  assert.equal(spareBufferBytes(4), 32 * MiB);
  assert.equal(spareBufferBytes(32), 64 * MiB);
  const profile = await chooseProfile(new URLSearchParams(''), undefined, measuring(MiB));
  assert.equal(profile.buffer, 32 * MiB);
});

test('a measured rate is declared whole and within 64 KiB/s to 64 MiB/s', () => {
  assert.equal(declaredRate(1234567.8), 1234568);
  assert.equal(declaredRate(10), MIN_DECLARED_RATE);
  assert.equal(MIN_DECLARED_RATE, 64 * 1024);
  assert.equal(declaredRate(1e12), MAX_DECLARED_RATE);
  assert.equal(MAX_DECLARED_RATE, 64 * MiB);
});

test('the buffer declared is no more than MSE holds ahead: its quota less the 20 s kept behind', async () => {
  assert.equal(mseAheadBytes(undefined), MSE_QUOTA_BYTES);
  assert.equal(mseAheadBytes(8_000_000), MSE_QUOTA_BYTES - 20_000_000);
  assert.equal(mseAheadBytes(100_000_000), 0);
  const hd = await chooseProfile(new URLSearchParams(''), 32, measuring(MiB), 36_000_000);
  assert.equal(hd.buffer, 10_000_000, 'a 36 Mbit/s clip keeps 90 MB behind: 10 MB ahead, under the 64 MiB spare');
  const small = await chooseProfile(new URLSearchParams(''), 32, measuring(MiB), 2_000_000);
  assert.equal(small.buffer, 64 * MiB, 'the device\'s spare buffer where MSE holds more');
});
