// The admin port's live events, GET /api/v1/events, as Server-Sent Events (the HTML standard's
// "text/event-stream" interpretation, less the event ids, which the admin port does not send).
// EventSource cannot send the Authorization header, so the dashboard reads the stream with fetch
// and parses it here: SseParser turns text, cut anywhere, into events; EventFeed keeps one such
// response open, and opens another after a pause that grows while the server stays away (Backoff).

/** The first pause before opening the stream again, unless the server sent a retry field. */
export const FIRST_RETRY_MS = 1000;
/** The longest pause between two attempts. */
export const LONGEST_RETRY_MS = 30_000;
/** The server sends a keep-alive comment every 15 s: a stream silent for this long is taken as lost. */
export const SILENT_LIMIT_MS = 45_000;

/**
 * The event stream format, line by line: "event", "data" (lines joined by "\n") and "retry"
 * fields, comments (lines starting with ':'), and a blank line that dispatches the event; other
 * fields are ignored. Lines end in CRLF, LF or CR, and a chunk may end anywhere, between a CR and
 * its LF too.
 */
export class SseParser {
  /** Milliseconds the server asked a client to wait before reconnecting; null until it says. */
  retryMs = null;
  #dispatch;
  #pending = '';
  #skipLineFeed = false;
  #atStart = true;
  #type = '';
  #data = [];

  /** dispatch({ type, data }) is called for each complete event. */
  constructor(dispatch) {
    this.#dispatch = dispatch;
  }

  /** Reads the next piece of the stream's text. */
  push(text) {
    let chunk = text;
    if (this.#atStart && chunk.length > 0) {
      this.#atStart = false;
      if (chunk.charCodeAt(0) === 0xfeff) {
        chunk = chunk.slice(1);
      }
    }
    if (this.#skipLineFeed && chunk.startsWith('\n')) {
      chunk = chunk.slice(1);
    }
    this.#skipLineFeed = false;
    let buffer = this.#pending + chunk;
    let end = buffer.search(/[\r\n]/);
    while (end >= 0) {
      this.#line(buffer.slice(0, end));
      if (buffer[end] === '\r') {
        if (end + 1 === buffer.length) {
          this.#skipLineFeed = true;
        } else if (buffer[end + 1] === '\n') {
          end++;
        }
      }
      buffer = buffer.slice(end + 1);
      end = buffer.search(/[\r\n]/);
    }
    this.#pending = buffer;
  }

  #line(line) {
    if (line === '') {
      this.#dispatchEvent();
      return;
    }
    if (line.startsWith(':')) {
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    switch (field) {
      case 'event':
        this.#type = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'retry':
        if (/^\d+$/.test(value)) {
          this.retryMs = Number(value);
        }
        break;
      default:
        break;
    }
  }

  #dispatchEvent() {
    const data = this.#data;
    const type = this.#type;
    this.#data = [];
    this.#type = '';
    if (data.length > 0) {
      this.#dispatch({ type: type || 'message', data: data.join('\n') });
    }
  }
}

/**
 * The pause before each attempt to open the stream again: doubling from the first pause up to
 * LONGEST_RETRY_MS, and back to the first once a stream has come up.
 */
export class Backoff {
  #firstMs;
  #nextMs;

  constructor(firstMs = FIRST_RETRY_MS) {
    this.#firstMs = firstMs;
    this.#nextMs = firstMs;
  }

  /** The pause before the next attempt; each call doubles the one after. */
  next() {
    const pause = this.#nextMs;
    this.#nextMs = Math.min(this.#nextMs * 2, LONGEST_RETRY_MS);
    return pause;
  }

  /** The stream came up: the next loss waits firstMs again (the server's retry field if it sent one). */
  reset(firstMs = this.#firstMs) {
    this.#firstMs = Math.min(firstMs, LONGEST_RETRY_MS);
    this.#nextMs = this.#firstMs;
  }
}

/** The server refused the token (401): reconnecting cannot help until a person gives another. */
class Unauthorized extends Error {
  constructor() {
    super('the server refused the token');
    this.name = 'Unauthorized';
  }
}

/**
 * One live event stream that reopens itself. open() is the request (it returns fetch's promise of
 * a Response and takes an AbortSignal); each parsed event goes to event(e); state(name, detail)
 * hears 'connecting', 'live', 'waiting' (detail: the pause in ms and why), and 'unauthorized',
 * after which the feed stops. wait(ms, signal) is the pause between attempts (a timer in the
 * page, instant in the tests).
 */
export class EventFeed {
  #open;
  #listener;
  #wait;
  #silentLimitMs;
  #backoff = new Backoff();
  #abort = null;
  #stopped = false;

  constructor(open, listener, { wait = pause, silentLimitMs = SILENT_LIMIT_MS } = {}) {
    this.#open = open;
    this.#listener = listener;
    this.#wait = wait;
    this.#silentLimitMs = silentLimitMs;
  }

  /** Reads the stream until stop() or a refused token, reopening it after each loss. */
  async run() {
    while (!this.#stopped) {
      this.#abort = new AbortController();
      this.#listener.state('connecting');
      let why;
      try {
        await this.#readOnce(this.#abort.signal);
        why = 'the server closed the stream';
      } catch (e) {
        if (e instanceof Unauthorized) {
          this.#stopped = true;
          this.#listener.state('unauthorized');
          return;
        }
        why = e.message;
      }
      if (this.#stopped) {
        return;
      }
      const pauseMs = this.#backoff.next();
      this.#listener.state('waiting', { pauseMs, why });
      await this.#wait(pauseMs, this.#abort.signal);
    }
  }

  /** Ends the feed: the open response is cancelled and no other is opened. */
  stop() {
    this.#stopped = true;
    this.#abort?.abort();
  }

  async #readOnce(signal) {
    const response = await this.#open(signal);
    if (response.status === 401) {
      throw new Unauthorized();
    }
    if (!response.ok || !response.body) {
      throw new Error(`the server answered ${response.status}`);
    }
    const parser = new SseParser((event) => this.#listener.event(event));
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let silence = null;
    let silent = false;
    const watch = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        silent = true;
        reader.cancel();
      }, this.#silentLimitMs);
    };
    watch();
    this.#listener.state('live');
    let came = false;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          if (silent) {
            throw new Error(`nothing came for ${this.#silentLimitMs / 1000} s`);
          }
          return;
        }
        watch();
        parser.push(value);
        if (!came) {
          came = true;
          this.#backoff.reset(parser.retryMs ?? FIRST_RETRY_MS);
        }
      }
    } finally {
      clearTimeout(silence);
    }
  }
}

/** Waits ms, or less if signal aborts. */
function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
