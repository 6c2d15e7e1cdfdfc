// Rondo's admin dashboard, served at /admin/ on the admin port: the guarantees, live. It asks for
// a token once (kept for the browser tab's session), reads each resource once, then follows the
// event stream and refreshes the rest every few seconds. This module decides what to fetch and
// when; the modules beside it keep state and paint:
//   api.js            the admin API with the token; sse.js the event stream, read with fetch
//   rounds.js         the rounds the chart shows; slack-chart.js the chart (papers/000, Figure 2)
//   streams-table.js  the running streams and their End buttons
//   panels.js         the header, D-response against its bound, admission decisions, recordings
//   policy.js         the policy form's fields and merge patch; policy-form.js the form
//   format.js         figures as a person reads them; dom.js the helpers that paint

import { Api, TOKEN_KEY } from './api.js';
import { $, el } from './dom.js';
import { formatClock } from './format.js';
import { paintAdmission, paintInfo, paintLive, paintResponses, REASONS } from './panels.js';
import { PolicyForm } from './policy-form.js';
import { RoundHistory, roundsInSpan, spanText } from './rounds.js';
import { SlackChart } from './slack-chart.js';
import { EventFeed } from './sse.js';
import { StreamsTable } from './streams-table.js';

/** How often the streams, disks and admission decisions are read again, events or not. */
const REFRESH_MS = 5000;
/** Stream events within this span bring one refresh of the streams and decisions. */
const SETTLE_MS = 250;
const STREAM_PAGE = 50;
/** The table shows at most this many pages of streams. */
const STREAM_PAGES = 10;
const ACTIVITY_LINES = 40;

/** The panels, made once for the page; each Dashboard (one a token) paints them. */
const chart = new SlackChart($('slack-chart'), $('slack-legend'));
const table = new StreamsTable((stream) => dashboard.end(stream));
const policyForm = new PolicyForm();
let dashboard = null;

class Dashboard {
  #api;
  #feed;
  #whenRefused;
  #history = null;
  #roundMs = null;
  #disks = [];
  #startedAt = null;
  #hellos = 0;
  #timer = null;
  #settling = null;
  #stopped = false;

  /** refused(): what to do when the server refuses the token. */
  constructor(token, refused) {
    this.#whenRefused = refused;
    this.#api = new Api(token, { unauthorized: () => this.#refused() });
    this.#feed = new EventFeed((signal) => this.#api.events(signal), {
      event: (event) => this.#event(event),
      state: (name, detail) => this.#live(name, detail),
    });
  }

  async start() {
    if (!(await this.#attempt('the server', () => this.#load()))) {
      return;
    }
    $('app').hidden = false;
    this.#feed.run();
    this.#timer = setInterval(() => this.#attempt('the server', () => this.#refresh()), REFRESH_MS);
  }

  stop() {
    this.#stopped = true;
    this.#feed.stop();
    clearInterval(this.#timer);
    clearTimeout(this.#settling);
  }

  /** Everything, read once: on start, and again whenever the event stream comes back. */
  async #load() {
    await Promise.all([this.#refresh(), policyForm.load(this.#api)]);
  }

  async #refresh() {
    const [{ body: info }, { body: disks }, streams, { body: admission }, { body: live }] = await Promise.all([
      this.#api.get('/api/v1/info'), this.#api.get('/api/v1/disks'), this.#streams(),
      this.#api.get('/api/v1/admission'), this.#api.get('/api/v1/live'),
    ]);
    if (this.#stopped) {
      return;
    }
    paintInfo(info, Date.now());
    this.#rounds(info.policy.scheduler.roundMs, info.startedAt, info.disks);
    disks.items.forEach((disk) => disk.slack.forEach((round) => this.#history.add(round)));
    chart.show(this.#history, this.#disks, this.#roundMs);
    paintResponses(disks.items);
    table.show(streams.items, streams.more);
    paintAdmission(admission);
    paintLive(live);
    $('problem').hidden = true;
  }

  /** The round history for this server: a new one when the server restarted or its round length differs. */
  #rounds(roundMs, startedAt, disks) {
    if (this.#history === null || roundMs !== this.#roundMs || startedAt !== this.#startedAt) {
      this.#history = new RoundHistory(roundsInSpan(roundMs));
      this.#roundMs = roundMs;
      this.#startedAt = startedAt;
      $('slack-span').textContent = spanText(0, roundsInSpan(roundMs), roundMs);
    }
    this.#disks = disks;
  }

  /** The running streams, page after page. */
  async #streams() {
    const items = [];
    let cursor = null;
    let pages = 0;
    do {
      const query = new URLSearchParams({ limit: String(STREAM_PAGE) });
      if (cursor) {
        query.set('cursor', cursor);
      }
      const { body } = await this.#api.get(`/api/v1/streams?${query}`);
      items.push(...body.items);
      cursor = body.next;
      pages++;
    } while (cursor && pages < STREAM_PAGES);
    return { items, more: cursor !== null && cursor !== undefined };
  }

  #event({ type, data }) {
    const body = JSON.parse(data);
    if (type === 'hello') {
      this.#hellos++;
      if (this.#hellos > 1) {
        this.#attempt('the server', () => this.#load());
      }
    } else if (type === 'round') {
      if (this.#history?.add(body)) {
        if (!this.#disks.includes(body.disk)) {
          this.#disks = [...this.#disks, body.disk];
        }
        chart.show(this.#history, this.#disks, this.#roundMs);
      }
    } else if (type === 'stream') {
      this.#activity(body);
      clearTimeout(this.#settling);
      this.#settling = setTimeout(() => this.#attempt('the streams', () => this.#refreshStreams()), SETTLE_MS);
    } else if (type === 'policy') {
      this.#attempt('the policy', () => policyForm.changedOnServer(this.#api));
    }
  }

  async #refreshStreams() {
    const [streams, { body: admission }] = await Promise.all([this.#streams(), this.#api.get('/api/v1/admission')]);
    table.show(streams.items, streams.more);
    paintAdmission(admission);
  }

  /** Ends a stream on the server (DELETE), and says what came of it; rejects if it was not ended. */
  async end(stream) {
    const what = `stream ${stream.id} (${stream.object} to ${stream.client})`;
    try {
      await this.#api.delete(`/api/v1/streams/${stream.id}`);
      this.#say(`Ended ${what}: its client was told the operator ended it.`, 'good');
    } catch (e) {
      const why = e.status === 403 ? 'this token may only read; ending a stream needs an admin token' : e.message;
      this.#say(`Could not end ${what}: ${why}.`, 'bad');
      throw e;
    } finally {
      this.#attempt('the streams', () => this.#refreshStreams());
    }
  }

  #say(text, tone) {
    $('streams-status').textContent = text;
    $('streams-status').className = `status ${tone}`;
  }

  /** A stream event in the activity list under the table. */
  #activity({ type, id, object, client, reason, detail }) {
    const list = $('activity');
    const line = `${id === null ? '' : `#${id} `}${object} ${type} (${client})`
      + (reason ? `: ${REASONS[reason] ?? reason}` : '') + (detail ? ` \u00b7 ${detail}` : '');
    list.prepend(el('li', { className: type === 'refused' ? 'bad' : '' },
      el('time', {}, formatClock(new Date().toISOString())), line));
    while (list.children.length > ACTIVITY_LINES) {
      list.lastElementChild.remove();
    }
  }

  #live(state, detail) {
    const pill = $('live');
    pill.dataset.state = state;
    pill.textContent = {
      connecting: 'Connecting\u2026',
      live: 'Live',
      waiting: `Reconnecting in ${Math.round((detail?.pauseMs ?? 0) / 1000)} s`,
      unauthorized: 'Token refused',
    }[state];
    pill.title = detail?.why ? `The event stream was lost: ${detail.why}` : '';
    if (state === 'unauthorized') {
      this.#refused();
    }
  }

  /** Runs a request; a failure other than a refused token is shown in the banner. True if it succeeded. */
  async #attempt(what, request) {
    try {
      await request();
      return true;
    } catch (e) {
      if (!this.#stopped && e.status !== 401) {
        $('problem').textContent = `Could not read ${what}: ${e.message}`;
        $('problem').hidden = false;
      }
      return false;
    }
  }

  #refused() {
    if (!this.#stopped) {
      this.stop();
      this.#whenRefused();
    }
  }
}

/** Asks for the token (saying why, if message), then starts the dashboard with it. */
function signIn(message) {
  dashboard?.stop();
  dashboard = null;
  $('app').hidden = true;
  $('live').hidden = true;
  $('signout').hidden = true;
  $('signin-message').textContent = message;
  $('signin').hidden = false;
  $('token').value = '';
  $('token').focus();
}

function begin(token) {
  $('signin').hidden = true;
  $('live').hidden = false;
  $('signout').hidden = false;
  dashboard = new Dashboard(token, () => {
    sessionStorage.removeItem(TOKEN_KEY);
    signIn('The server refused that token.');
  });
  dashboard.start();
}

$('signin-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('token').value.trim();
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    begin(token);
  }
});
$('signout').addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN_KEY);
  signIn('');
});

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  begin(saved);
} else {
  signIn('');
}
