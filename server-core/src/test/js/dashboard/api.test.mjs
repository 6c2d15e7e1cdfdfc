// What the dashboard sends the admin API, and what it makes of the answers: the token as a
// bearer credential on every request, a policy change as a merge patch on the ETag it was made
// against, and a failure as the problem details the server wrote (RFC 9457).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Api, ApiError } from '../../../main/resources/io/rondo/server/admin/dashboard/api.js';

/** An Api whose fetch records each request and answers with the next response. */
function apiAnswering(...responses) {
  const requests = [];
  const refusals = [];
  const api = new Api('s3cret', {
    fetch: async (url, init) => {
      requests.push({ url, ...init });
      return responses.shift();
    },
    unauthorized: () => refusals.push(requests.at(-1).url),
  });
  return { api, requests, refusals };
}

const json = (body, status = 200, headers = {}) => new Response(JSON.stringify(body), {
  status, headers: { 'Content-Type': 'application/json', ...headers },
});

const problem = (status, code, detail, extra = {}) => new Response(JSON.stringify({
  type: `urn:rondo:problem:${code}`, title: code, status, detail, code, ...extra,
}), { status, headers: { 'Content-Type': 'application/problem+json' } });

test('every request carries the token as a bearer credential', async () => {
  const { api, requests } = apiAnswering(json({ items: [] }), new Response(null, { status: 204 }),
    new Response('', { status: 200 }));
  await api.get('/api/v1/streams');
  await api.delete('/api/v1/streams/7');
  await api.events(new AbortController().signal);
  assert.deepEqual(requests.map((r) => [r.method ?? 'GET', r.url, r.headers.Authorization]), [
    ['GET', '/api/v1/streams', 'Bearer s3cret'],
    ['DELETE', '/api/v1/streams/7', 'Bearer s3cret'],
    ['GET', '/api/v1/events', 'Bearer s3cret'],
  ]);
  assert.equal(requests[2].headers.Accept, 'text/event-stream');
});

test('a GET gives the body and the ETag to change it with', async () => {
  const { api } = apiAnswering(json({ scheduler: { roundMs: 1000 } }, 200, { ETag: '"p7"' }));
  assert.deepEqual(await api.get('/api/v1/policy'), { body: { scheduler: { roundMs: 1000 } }, etag: '"p7"' });
});

test('a policy change is a merge patch sent on the ETag of the policy it was made against', async () => {
  const { api, requests } = apiAnswering(json({ policy: {}, appliesFrom: 'next-round', exceedingStreams: 2 }, 200,
    { ETag: '"p8"' }));
  const answer = await api.mergePatch('/api/v1/policy', { admission: { policy: 'adm3' } }, '"p7"');
  assert.equal(requests[0].method, 'PATCH');
  assert.equal(requests[0].headers['Content-Type'], 'application/merge-patch+json');
  assert.equal(requests[0].headers['If-Match'], '"p7"');
  assert.deepEqual(JSON.parse(requests[0].body), { admission: { policy: 'adm3' } });
  assert.equal(answer.body.exceedingStreams, 2);
  assert.equal(answer.etag, '"p8"');
});

test('a refusal is an error holding the server\'s problem: its status, detail and field', async () => {
  const { api } = apiAnswering(problem(422, 'immutable-setting', 'the round length cannot change while serving',
    { field: 'scheduler.roundMs' }));
  const error = await api.mergePatch('/api/v1/policy', { scheduler: { roundMs: 500 } }, '"p7"').catch((e) => e);
  assert.ok(error instanceof ApiError);
  assert.equal(error.status, 422);
  assert.equal(error.message, 'the round length cannot change while serving');
  assert.equal(error.field, 'scheduler.roundMs');
  assert.equal(error.problem.code, 'immutable-setting');
});

test('a failure without problem details still says what the server answered', async () => {
  const { api, refusals } = apiAnswering(new Response('<html>Bad gateway</html>', { status: 502 }),
    problem(401, 'unauthorized', ''));
  const plain = await api.get('/api/v1/info').catch((e) => e);
  assert.equal(plain.message, 'the server answered 502');
  assert.equal(plain.problem, null);
  assert.equal(plain.field, null);
  const refused = await api.get('/api/v1/info').catch((e) => e);
  assert.equal(refused.status, 401);
  assert.equal(refused.message, 'unauthorized', 'the title, where the detail is empty');
  assert.deepEqual(refusals, ['/api/v1/info'], 'a refused token is reported, so the page can ask for another');
});
