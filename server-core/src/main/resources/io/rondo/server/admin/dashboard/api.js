// The admin API as the dashboard calls it: every request carries the token as a bearer
// credential (RFC 6750); an answer that is not a success becomes an ApiError holding the RFC 9457
// problem the server sent (type, title, status, detail, and Rondo's code and field).

export const TOKEN_KEY = 'rondo.adminToken';

export class ApiError extends Error {
  /** status: the HTTP status; problem: the problem details object, or null if the body was none. */
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `the server answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }

  /** The policy field the problem is about ("admission.discreteReserve"), if it names one. */
  get field() {
    return this.problem?.field ?? null;
  }
}

export class Api {
  #token;
  #fetch;
  #unauthorized;

  /**
   * fetch: the page's fetch, or a stand-in in the tests; unauthorized(): called when the server
   * refuses the token (401), before the request fails.
   */
  constructor(token, { fetch: fetchImpl = (...args) => fetch(...args), unauthorized = () => {} } = {}) {
    this.#token = token;
    this.#fetch = fetchImpl;
    this.#unauthorized = unauthorized;
  }

  /** GET path: { body, etag }. */
  async get(path) {
    const response = await this.#send(path, { method: 'GET' });
    return { body: await response.json(), etag: response.headers.get('ETag') };
  }

  /** PATCH path with a JSON merge patch (RFC 7396), if it still has the resource at etag: { body, etag }. */
  async mergePatch(path, patch, etag) {
    const response = await this.#send(path, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': etag },
      body: JSON.stringify(patch),
    });
    return { body: await response.json(), etag: response.headers.get('ETag') };
  }

  /** DELETE path. */
  async delete(path) {
    await this.#send(path, { method: 'DELETE' });
  }

  /** The live event stream's response (text/event-stream), unread; signal cancels it. */
  events(signal) {
    return this.#fetch('/api/v1/events', {
      headers: { Authorization: `Bearer ${this.#token}`, Accept: 'text/event-stream' },
      cache: 'no-store',
      signal,
    });
  }

  async #send(path, { method, headers = {}, body }) {
    const response = await this.#fetch(path, {
      method,
      headers: { ...headers, Authorization: `Bearer ${this.#token}`, Accept: 'application/json' },
      body,
      cache: 'no-store',
    });
    if (response.status === 401) {
      this.#unauthorized();
    }
    if (!response.ok) {
      throw new ApiError(response.status, await problemOf(response));
    }
    return response;
  }
}

/** The problem details of a failed answer; null if its body is not JSON. */
async function problemOf(response) {
  try {
    return JSON.parse(await response.text());
  } catch {
    return null;
  }
}
