// The running streams, a row each, updated in place (a refresh does not swallow a click on a row's
// button), with an "End" button that asks once more ("Confirm end") before it ends the stream:
// DELETE /api/v1/streams/{id}, after which the client gets ERROR 0x0104 ENDED_BY_OPERATOR and its
// admission and buffers are released.

import { $, el } from './dom.js';
import { formatBytes, formatLateness, formatPosition } from './format.js';

/** How long "Confirm end" waits for its second click before it is "End" again. */
const CONFIRM_MS = 5000;

const COLUMNS = [
  ['object', (s) => s.object],
  ['client', (s) => `${s.client} (${s.transport})`],
  ['state', (s) => s.state],
  ['position', (s) => formatPosition(s.positionSeconds)],
  ['bytes', (s) => formatBytes(s.bytesSent)],
  ['glitches', (s) => String(s.glitches)],
  ['lateness', (s) => formatLateness(s.maxLatenessMs)],
];

export class StreamsTable {
  #body;
  #end;
  #rows = new Map();
  /** Stream id -> the timer that takes its "Confirm end" back. */
  #confirming = new Map();

  /** end(stream): ends the stream on the server, resolving when it did and rejecting with why not. */
  constructor(end) {
    this.#body = $('streams-body');
    this.#end = end;
  }

  /** Shows these streams (ended ones are left out); more: whether the server has streams beyond them. */
  show(streams, more) {
    const running = streams.filter((s) => s.state !== 'ended');
    const seen = new Set();
    for (const stream of running) {
      seen.add(stream.id);
      let row = this.#rows.get(stream.id);
      if (!row) {
        row = this.#newRow(stream);
        this.#rows.set(stream.id, row);
      }
      row.stream = stream;
      COLUMNS.forEach(([, text], i) => {
        row.cells[i].textContent = text(stream);
      });
      row.cells[COLUMNS.findIndex(([name]) => name === 'glitches')].classList.toggle('bad', stream.glitches > 0);
      row.element.dataset.state = stream.state;
      this.#body.append(row.element);
    }
    for (const [id, row] of this.#rows) {
      if (!seen.has(id)) {
        row.element.remove();
        this.#rows.delete(id);
        clearTimeout(this.#confirming.get(id));
        this.#confirming.delete(id);
      }
    }
    $('streams-count').textContent = `${running.length}${more ? '+' : ''} running`;
    $('streams-empty').hidden = running.length > 0;
  }

  #newRow(stream) {
    const cells = COLUMNS.map(([name]) => el('td', { className: name }));
    const button = el('button', { type: 'button', className: 'end', 'data-stream': stream.id }, 'End');
    const element = el('tr', { 'data-stream': stream.id }, ...cells, el('td', {}, button));
    const row = { cells, button, stream, element };
    button.addEventListener('click', () => this.#clicked(row));
    return row;
  }

  #clicked(row) {
    const id = row.stream.id;
    if (!this.#confirming.has(id)) {
      row.button.textContent = 'Confirm end';
      row.button.classList.add('confirm');
      this.#confirming.set(id, setTimeout(() => this.#unconfirm(row), CONFIRM_MS));
      return;
    }
    clearTimeout(this.#confirming.get(id));
    this.#confirming.delete(id);
    row.button.disabled = true;
    row.button.textContent = 'Ending\u2026';
    this.#end(row.stream).then(() => {
      row.button.textContent = 'Ended';
    }, () => {
      row.button.disabled = false;
      this.#unconfirm(row);
    });
  }

  #unconfirm(row) {
    this.#confirming.delete(row.stream.id);
    row.button.textContent = 'End';
    row.button.classList.remove('confirm');
  }
}
