// The policy panel: the policy in force, and a form that changes it without a restart. What it
// sends is policy.js's merge patch, on the ETag of the policy the form was filled from; the
// server applies it from the next round on every disk, and says how many running streams the new
// settings would not have admitted (they keep running; the settings apply to new streams).

import { $, el } from './dom.js';
import { formatMs } from './format.js';
import { formTexts, POLICY_FIELDS, policyPatch } from './policy.js';

export class PolicyForm {
  #api = null;
  #policy = null;
  #etag = null;
  #inputs = new Map();
  #notes = new Map();

  constructor() {
    $('policy-fields').replaceChildren(...POLICY_FIELDS.map((field) => {
      const id = `policy-${field.path.replace('.', '-')}`;
      const input = field.kind.options
        ? el('select', { id, name: field.path }, ...field.kind.options.map((o) => el('option', { value: o }, o)))
        : el('input', { id, name: field.path, type: 'text', autocomplete: 'off', spellcheck: 'false' });
      const note = el('small', { className: 'field-note' });
      this.#inputs.set(field.path, input);
      this.#notes.set(field.path, note);
      input.addEventListener('input', () => this.#edited());
      return el('label', { for: id }, el('span', {}, field.label), input, note);
    }));
    $('policy-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.#apply();
    });
    $('policy-revert').addEventListener('click', () => {
      this.#fill();
      this.#say('');
    });
  }

  /** Reads the policy and its ETag from the server through api, and fills the form with it. */
  async load(api) {
    this.#api = api;
    const { body, etag } = await this.#api.get('/api/v1/policy');
    this.#policy = body;
    this.#etag = etag;
    this.#fill();
  }

  /**
   * A policy event: the policy changed on the server. An untouched form is filled again; one a
   * person is editing keeps their edits and its ETag, so that applying them is refused (412) rather
   * than undoing the other change unseen.
   */
  async changedOnServer(api) {
    if (Object.keys(this.#ask().patch).length === 0) {
      await this.load(api);
    } else {
      this.#say('The policy was changed on the server while you edited it.', 'bad');
    }
  }

  #fill() {
    const texts = formTexts(this.#policy);
    for (const [path, input] of this.#inputs) {
      input.value = texts[path];
    }
    $('policy-round').textContent = `${formatMs(this.#policy.scheduler.roundMs)} (fragments are cut to it: `
      + 'it cannot change while serving)';
    this.#edited();
  }

  #ask() {
    return policyPatch(this.#policy, Object.fromEntries([...this.#inputs].map(([path, input]) => [path, input.value])));
  }

  /** Marks the fields a person changed, and those that are not a value of their kind; enables Apply. */
  #edited() {
    const { patch, errors } = this.#ask();
    const texts = formTexts(this.#policy);
    for (const [path, input] of this.#inputs) {
      input.closest('label').classList.toggle('changed', input.value.trim() !== texts[path].trim());
      input.closest('label').classList.toggle('invalid', path in errors);
      this.#notes.get(path).textContent = errors[path] ? `Wanted: ${errors[path]}` : '';
    }
    const changes = Object.keys(patch).length > 0;
    $('policy-apply').disabled = !changes || Object.keys(errors).length > 0;
    $('policy-revert').disabled = !changes && Object.keys(errors).length === 0;
  }

  async #apply() {
    const { patch, errors } = this.#ask();
    if (Object.keys(errors).length > 0 || Object.keys(patch).length === 0) {
      return;
    }
    $('policy-apply').disabled = true;
    try {
      const { body, etag } = await this.#api.mergePatch('/api/v1/policy', patch, this.#etag);
      this.#policy = body.policy;
      this.#etag = etag;
      this.#fill();
      const exceeding = body.exceedingStreams;
      const when = body.appliesFrom === 'next-round' ? 'the next round' : body.appliesFrom;
      const fit = exceeding === 0 ? 'Every running stream fits the new settings.'
        : `${exceeding === 1 ? '1 running stream exceeds the new settings: it keeps'
          : `${exceeding} running streams exceed the new settings: they keep`} running, and the settings apply to `
          + 'new streams.';
      this.#say(`Applied from ${when} on every disk. ${fit}`, exceeding > 0 ? 'warn' : 'good');
    } catch (e) {
      await this.#refused(e);
    }
  }

  async #refused(e) {
    if (e.status === 412) {
      await this.load(this.#api);
      this.#say('Someone else changed the policy since this form was filled: it now shows theirs. '
        + 'Make your change again if it still applies.', 'bad');
    } else if (e.status === 403) {
      this.#say('This token may only read: changing the policy needs an admin token.', 'bad');
      this.#edited();
    } else if (e.status === 401) {
      this.#say('Not applied: the server refused the token.', 'bad');
    } else {
      this.#say(`Not applied: ${e.message}`, 'bad');
      this.#edited();
      if (e.field && this.#inputs.has(e.field)) {
        this.#inputs.get(e.field).closest('label').classList.add('invalid');
        this.#notes.get(e.field).textContent = e.message;
      }
    }
  }

  #say(text, tone = '') {
    $('policy-status').textContent = text;
    $('policy-status').className = `status ${tone}`;
  }
}
