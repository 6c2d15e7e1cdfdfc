// The policy form sends PATCH /api/v1/policy a JSON merge patch (RFC 7396) of what a person
// changed and nothing else: a field left alone, or retyped to the same value, is not sent, so it
// cannot undo a change someone else made meanwhile to another field.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formTexts, mergePatch, POLICY_FIELDS, policyPatch,
} from '../../../main/resources/io/rondo/server/admin/dashboard/policy.js';

const POLICY = {
  scheduler: { policy: 'mixed-incremental-scan', roundMs: 1000 },
  admission: { policy: 'adm2', discreteReserve: 0.2 },
  discrete: { responseBoundMs: 1800 },
  buffers: { ceilingBytes: 3221225472 },
  network: { capacityBitsPerSecond: null },
};

/** The form filled from POLICY, with these texts typed over it. */
const typed = (changes) => ({ ...formTexts(POLICY), ...changes });

test('the form shows each setting as a person reads it, and the round length not at all', () => {
  assert.deepEqual(formTexts(POLICY), {
    'scheduler.policy': 'mixed-incremental-scan',
    'admission.policy': 'adm2',
    'admission.discreteReserve': '20',
    'discrete.responseBoundMs': '1800',
    'buffers.ceilingBytes': '3.0 GiB',
    'network.capacityBitsPerSecond': '',
  });
  assert.ok(!POLICY_FIELDS.some((f) => f.path === 'scheduler.roundMs'), 'fragments are cut to the round length');
});

test('an untouched form is no change', () => {
  assert.deepEqual(policyPatch(POLICY, typed({})), { patch: {}, errors: {} });
});

test('one changed field is the whole patch, nested as the policy is', () => {
  assert.deepEqual(policyPatch(POLICY, typed({ 'scheduler.policy': 'mixed-gated-scan' })).patch,
    { scheduler: { policy: 'mixed-gated-scan' } });
  assert.deepEqual(policyPatch(POLICY, typed({ 'admission.discreteReserve': '25' })).patch,
    { admission: { discreteReserve: 0.25 } });
});

test('several changed fields are sent together, and no other', () => {
  const { patch } = policyPatch(POLICY, typed({
    'admission.policy': 'adm3', 'discrete.responseBoundMs': '900', 'network.capacityBitsPerSecond': '1 Gbit/s',
  }));
  assert.deepEqual(patch, { admission: { policy: 'adm3' }, discrete: { responseBoundMs: 900 },
    network: { capacityBitsPerSecond: 1e9 } });
});

test('a value retyped in other units, or with other spacing, is no change', () => {
  assert.deepEqual(policyPatch(POLICY, typed({ 'buffers.ceilingBytes': '3G', 'discrete.responseBoundMs': ' 1800 ' })),
    { patch: {}, errors: {} });
});

test('a size the form shows rounded is not rewritten to the rounded value unless it is retyped', () => {
  const odd = { ...POLICY, buffers: { ceilingBytes: 3221225472 + 1000 } };
  assert.equal(formTexts(odd)['buffers.ceilingBytes'], '3.0 GiB');
  assert.deepEqual(policyPatch(odd, { ...formTexts(odd) }).patch, {});
  assert.deepEqual(policyPatch(odd, { ...formTexts(odd), 'buffers.ceilingBytes': '2 GiB' }).patch,
    { buffers: { ceilingBytes: 2 * 1024 ** 3 } });
});

test('emptying the network capacity sends null: unlimited', () => {
  const limited = { ...POLICY, network: { capacityBitsPerSecond: 1e9 } };
  assert.equal(formTexts(limited)['network.capacityBitsPerSecond'], '1.0 Gbit/s');
  assert.deepEqual(policyPatch(limited, { ...formTexts(limited), 'network.capacityBitsPerSecond': '' }).patch,
    { network: { capacityBitsPerSecond: null } });
});

test('a field that is not a value of its kind is named with what it wants, and nothing is sent for it', () => {
  const { patch, errors } = policyPatch(POLICY, typed({
    'admission.discreteReserve': '120', 'discrete.responseBoundMs': '0.5', 'buffers.ceilingBytes': 'lots',
    'scheduler.policy': 'elevator', 'admission.policy': 'adm1',
  }));
  assert.deepEqual(Object.keys(errors).sort(), ['admission.discreteReserve', 'buffers.ceilingBytes',
    'discrete.responseBoundMs', 'scheduler.policy']);
  assert.match(errors['scheduler.policy'], /mixed-gated-scan/);
  assert.deepEqual(patch, { admission: { policy: 'adm1' } });
});

test('a merge patch turns one document into the other as RFC 7396 applies it', () => {
  assert.equal(mergePatch(POLICY, structuredClone(POLICY)), undefined);
  assert.deepEqual(mergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { d: 'e' } }),
    { a: 'z', c: { f: null } }, 'RFC 7396, Section 3\'s example, reversed');
  assert.deepEqual(mergePatch({ a: [1, 2] }, { a: [1, 3] }), { a: [1, 3] }, 'an array is replaced whole');
  assert.deepEqual(mergePatch({ a: null }, { a: { b: 1 } }), { a: { b: 1 } });
  assert.deepEqual(mergePatch({ a: 1 }, { a: 1, b: 2 }), { b: 2 });
});
