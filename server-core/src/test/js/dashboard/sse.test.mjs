// The dashboard reads GET /api/v1/events itself (EventSource cannot send a bearer token): the
// format as the HTML standard defines it, cut into chunks anywhere, and a feed that reopens the
// stream after each loss, waiting longer each time, and gives up only on a refused token.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Backoff, EventFeed, FIRST_RETRY_MS, LONGEST_RETRY_MS, SseParser,
} from '../../../main/resources/io/rondo/server/admin/dashboard/sse.js';

/** The events a parser dispatches for the text given in these chunks. */
function parse(...chunks) {
  const events = [];
  const parser = new SseParser((event) => events.push(event));
  chunks.forEach((chunk) => parser.push(chunk));
  return { events, parser };
}

const ROUND = '{"disk":"sda","round":1234,"slackMs":870.5,"overrun":false}';

test('the admin stream\'s events come out with their type and data', () => {
  const { events } = parse(`event: hello\ndata: {"version":"0.1.0","disks":["sda"],"roundMs":1000}\n\n`
    + `event: round\ndata: ${ROUND}\n\n`);
  assert.deepEqual(events.map((e) => e.type), ['hello', 'round']);
  assert.equal(JSON.parse(events[0].data).roundMs, 1000);
  assert.equal(JSON.parse(events[1].data).slackMs, 870.5);
});

test('an event cut anywhere, between a CR and its LF too, is read whole', () => {
  const text = `event: round\r\ndata: ${ROUND}\r\n\r\n`;
  for (let cut = 0; cut <= text.length; cut++) {
    const { events } = parse(text.slice(0, cut), text.slice(cut));
    assert.equal(events.length, 1, `cut at ${cut}`);
    assert.deepEqual(events[0], { type: 'round', data: ROUND }, `cut at ${cut}`);
  }
  const { events } = parse(...text.split(''));
  assert.equal(events.length, 1, 'a character at a time');
});

test('lines may end in LF, CRLF or a lone CR', () => {
  const { events } = parse('data: a\rdata: b\r\n\rdata: c\n\n');
  assert.deepEqual(events.map((e) => e.data), ['a\nb', 'c']);
});

test('keep-alive comments, unknown fields and events without data dispatch nothing', () => {
  const { events } = parse(': keep-alive\n\n', 'event: round\n\n', 'colour: blue\n\n', ':\n');
  assert.deepEqual(events, []);
});

test('data lines join with newlines; a field keeps what follows the single space after its colon', () => {
  const { events } = parse('data:first\ndata:  second\ndata\n\n');
  assert.equal(events[0].data, 'first\n second\n');
  assert.equal(events[0].type, 'message', 'an event without a type is a message');
});

test('the event type applies to one event only', () => {
  const { events } = parse('event: stream\ndata: 1\n\ndata: 2\n\n');
  assert.deepEqual(events.map((e) => e.type), ['stream', 'message']);
});

test('a byte order mark at the start of the stream is not part of the first field', () => {
  const { events } = parse('\ufeffevent: hello\ndata: {}\n\n');
  assert.equal(events[0].type, 'hello');
});

test('a retry field sets the reconnection pause; one that is not a number is ignored', () => {
  const { events, parser } = parse('id: 7\ndata: a\n\nretry: 2500\nretry: soon\n');
  assert.deepEqual(events, [{ type: 'message', data: 'a' }]);
  assert.equal(parser.retryMs, 2500);
});

test('the pause between attempts doubles up to its longest, and starts again once a stream came up', () => {
  const backoff = new Backoff();
  const pauses = Array.from({ length: 8 }, () => backoff.next());
  assert.deepEqual(pauses.slice(0, 4), [FIRST_RETRY_MS, 2 * FIRST_RETRY_MS, 4 * FIRST_RETRY_MS, 8 * FIRST_RETRY_MS]);
  assert.equal(pauses.at(-1), LONGEST_RETRY_MS);
  backoff.reset();
  assert.equal(backoff.next(), FIRST_RETRY_MS);
  backoff.reset(2500);
  assert.deepEqual([backoff.next(), backoff.next()], [2500, 5000], 'the server\'s retry field is the first pause');
});

/** A Response whose body is these chunks, then its end. */
function streamOf(...chunks) {
  const body = new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(new TextEncoder().encode(chunk)));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

/** A feed over these answers, one an attempt; what it heard, and the pauses it took. */
async function runFeed(answers, options = {}) {
  const heard = [];
  const pauses = [];
  let attempt = 0;
  let feed;
  const open = async () => {
    const answer = answers[attempt++];
    if (answer === undefined) {
      feed.stop();
      throw new Error('no more answers');
    }
    if (answer instanceof Error) {
      throw answer;
    }
    return answer;
  };
  feed = new EventFeed(open, {
    event: (e) => heard.push(`${e.type} ${e.data}`),
    state: (name, detail) => heard.push(detail ? `(${name} ${detail.pauseMs} ms: ${detail.why})` : `(${name})`),
  }, { wait: async (ms) => pauses.push(ms), ...options });
  await feed.run();
  return { heard, pauses, attempts: attempt };
}

test('the feed reopens a lost stream, waiting longer after each failure and less once one came up', async () => {
  const { heard, pauses } = await runFeed([
    new TypeError('Failed to fetch'),
    new Response('busy', { status: 503 }),
    streamOf('event: hello\ndata: {"n":1}\n\n'),
    streamOf('event: hello\ndata: {"n":2}\n\n'),
  ]);
  assert.deepEqual(heard, [
    '(connecting)', `(waiting ${FIRST_RETRY_MS} ms: Failed to fetch)`,
    '(connecting)', `(waiting ${2 * FIRST_RETRY_MS} ms: the server answered 503)`,
    '(connecting)', '(live)', 'hello {"n":1}', `(waiting ${FIRST_RETRY_MS} ms: the server closed the stream)`,
    '(connecting)', '(live)', 'hello {"n":2}', `(waiting ${FIRST_RETRY_MS} ms: the server closed the stream)`,
    '(connecting)',
  ]);
  assert.deepEqual(pauses.slice(0, 4), [FIRST_RETRY_MS, 2 * FIRST_RETRY_MS, FIRST_RETRY_MS, FIRST_RETRY_MS]);
});

test('a refused token stops the feed: reconnecting cannot help until a person gives another', async () => {
  const { heard, attempts } = await runFeed([
    new Response('{"status":401}', { status: 401 }),
    streamOf('event: hello\ndata: {}\n\n'),
  ]);
  assert.deepEqual(heard, ['(connecting)', '(unauthorized)']);
  assert.equal(attempts, 1);
});

test('a stream that goes silent past the keep-alives is given up and opened again', async () => {
  const silent = new Response(new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(': keep-alive\n\n'));
    },
  }), { status: 200 });
  const { heard } = await runFeed([silent], { silentLimitMs: 20 });
  assert.deepEqual(heard.slice(0, 3),
    ['(connecting)', '(live)', `(waiting ${FIRST_RETRY_MS} ms: nothing came for 0.02 s)`]);
});

test('stopping the feed aborts the open request and opens no other', async () => {
  let feed;
  let opened = 0;
  let aborted = false;
  const ticks = [];
  feed = new EventFeed(async (signal) => {
    opened++;
    let pump;
    return new Response(new ReadableStream({
      start(controller) {
        pump = setInterval(() => controller.enqueue(new TextEncoder().encode('data: tick\n\n')), 2);
        signal.addEventListener('abort', () => {
          aborted = true;
          clearInterval(pump);
          controller.error(new DOMException('The operation was aborted.', 'AbortError'));
        });
      },
    }), { status: 200 });
  }, {
    event: (e) => {
      ticks.push(e.data);
      if (ticks.length === 3) {
        feed.stop();
      }
    },
    state: () => {},
  }, { wait: async () => {} });
  await feed.run();
  assert.ok(aborted, 'the request was aborted, as fetch does with its signal');
  assert.equal(opened, 1);
  assert.equal(ticks.length, 3);
});
