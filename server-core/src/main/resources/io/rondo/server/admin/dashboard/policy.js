// The policy form: the fields a person may change (GET /api/v1/policy's settings less the round
// length, which fragments are cut to and so cannot change at run time), their text in the form,
// and what the form sends: an RFC 7396 JSON merge patch of the fields a person changed, and only
// those, for PATCH /api/v1/policy with the ETag of the policy the form was filled from.

import { formatBitRate, formatBytes, parseBitRate, parseBytes } from './format.js';

const SCHEDULING_POLICIES = ['mixed-incremental-scan', 'mixed-gated-scan', 'disjoint-incremental-scan',
  'disjoint-incremental-fcfs'];
const ADMISSION_POLICIES = ['adm1', 'adm2', 'adm3'];

/** A choice among names. */
const choice = (names) => ({
  options: names,
  show: (value) => value,
  read: (text) => (names.includes(text) ? { value: text } : { error: `one of ${names.join(', ')}` }),
});

/** A whole number of milliseconds, at least 1. */
const millis = {
  show: (value) => String(value),
  read: (text) => (/^\d+$/.test(text.trim()) && Number(text) >= 1 ? { value: Number(text) }
    : { error: 'a whole number of milliseconds, at least 1' }),
};

/** A share of the round, 0 to 1, typed as a percentage. */
const share = {
  show: (value) => String(Number((value * 100).toFixed(2))),
  read: (text) => {
    const percent = Number(text.trim().replace(/\s*%$/, ''));
    return text.trim() !== '' && percent >= 0 && percent < 100 ? { value: Number((percent / 100).toFixed(4)) }
      : { error: 'a percentage from 0 to under 100' };
  },
};

const bytes = {
  show: (value) => formatBytes(value),
  read: (text) => {
    const value = parseBytes(text);
    return value !== null && value > 0 ? { value } : { error: 'a size such as 3 GiB, 512M or 1073741824' };
  },
};

/** A bit rate, or unlimited (null) when left empty. */
const capacity = {
  show: (value) => (value === null ? '' : formatBitRate(value)),
  read: (text) => {
    if (text.trim() === '' || /^unlimited$/i.test(text.trim())) {
      return { value: null };
    }
    const value = parseBitRate(text);
    return value !== null && value > 0 ? { value }
      : { error: 'a rate such as 1 Gbit/s or 500M, or empty for unlimited' };
  },
};

/** The form's fields: the policy's path to each (as the API's problems name it in "field") and its kind. */
export const POLICY_FIELDS = [
  { path: 'scheduler.policy', label: 'Scheduling policy', kind: choice(SCHEDULING_POLICIES) },
  { path: 'admission.policy', label: 'Admission policy', kind: choice(ADMISSION_POLICIES) },
  { path: 'admission.discreteReserve', label: 'Discrete reserve (% of a round)', kind: share },
  { path: 'discrete.responseBoundMs', label: 'D-response bound (ms)', kind: millis },
  { path: 'buffers.ceilingBytes', label: 'Buffer ceiling', kind: bytes },
  { path: 'network.capacityBitsPerSecond', label: 'Network capacity (empty: unlimited)', kind: capacity },
];

/** The value at a dotted path of an object; undefined where there is none. */
function valueAt(object, path) {
  return path.split('.').reduce((node, key) => (node == null ? undefined : node[key]), object);
}

/** The text each field of the form shows for this policy, by path. */
export function formTexts(policy) {
  return Object.fromEntries(POLICY_FIELDS.map((f) => [f.path, f.kind.show(valueAt(policy, f.path))]));
}

/**
 * What the form asks for, against the policy it was filled from: { patch, errors }. patch holds
 * the fields whose text a person changed and whose value then differs (a size retyped in other
 * units is no change), nested as the policy is; errors names each field whose text is not a value
 * of its kind, by path. An empty patch is no change.
 */
export function policyPatch(policy, texts) {
  const before = formTexts(policy);
  const after = structuredClone(policy);
  const errors = {};
  for (const field of POLICY_FIELDS) {
    const text = texts[field.path] ?? before[field.path];
    if (text.trim() === before[field.path].trim()) {
      continue;
    }
    const read = field.kind.read(text);
    if ('error' in read) {
      errors[field.path] = read.error;
    } else {
      const keys = field.path.split('.');
      const parent = keys.slice(0, -1).reduce((node, key) => node[key], after);
      parent[keys.at(-1)] = read.value;
    }
  }
  return { patch: mergePatch(policy, after) ?? {}, errors };
}

/**
 * The RFC 7396 merge patch that turns before into after: for objects, the members that differ
 * (recursively), a member after lacks as null; anything else, after itself. undefined when the two
 * are equal. A member whose value becomes null is sent as null, which the policy reads as unset
 * (the default, such as an unlimited network).
 */
export function mergePatch(before, after) {
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(before) || !isObject(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? undefined : after;
  }
  const patch = {};
  for (const key of Object.keys(before)) {
    if (!(key in after)) {
      patch[key] = null;
    }
  }
  for (const [key, value] of Object.entries(after)) {
    const member = key in before ? mergePatch(before[key], value) : value;
    if (member !== undefined) {
      patch[key] = member;
    }
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}
