// The web console page is served, and requests it makes are recorded as the console surface.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('web console', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('serves the console page with a strict content security policy', async () => {
    const res = await s.request('GET', '/console');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.body, /sightline console/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
    assert.equal((await s.request('GET', '/')).statusCode, 302);
  });

  test('console requests are recorded with access source console and scope idempotency apart from the API', async () => {
    const { key } = await s.account({ credits: 10 });
    const body = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], idempotency_key: 'same' };
    const fromConsole = await s.request('POST', '/v1/visibility/runs', { key, body, headers: { 'x-sightline-surface': 'console' } });
    const fromApi = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.notEqual(fromConsole.json().run_id, fromApi.json().run_id);
    const run = (await s.request('GET', `/v1/visibility/runs/${fromConsole.json().run_id}`, { key })).json();
    assert.equal(run.source, 'console');
    const items = (await s.request('GET', '/v1/activity?kind=visibility', { key })).json().items;
    assert.deepEqual(items.slice(0, 3).map((i: any) => i.source), ['api', 'api', 'console']);
  });
});

// The console page itself, run in jsdom against the real server (fetch goes through app.inject):
// what a user clicking in a browser would send and see.
describe('web console page in a browser', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  async function openConsole(key: string, opts: { failNextPost?: boolean } = {}) {
    const { JSDOM } = await import('jsdom');
    const page = (await s.request('GET', '/console')).body;
    const sent: { method: string; url: string; body?: any }[] = [];
    let failNextPost = opts.failNextPost ?? false;
    // Once the test closes the window, answers never arrive: the page's pending work (a refresh
    // in flight) waits forever instead of touching a closed document.
    let closed = false;
    const never = () => new Promise<never>(() => {});
    const dom = new JSDOM(page, {
      url: 'http://127.0.0.1/console',
      runScripts: 'dangerously',
      beforeParse(window) {
        window.localStorage.setItem('sightline_key', key);
        (window as any).fetch = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
          if (closed) return never();
          sent.push({ method: init.method, url, body: init.body ? JSON.parse(init.body) : undefined });
          const res = await s.app.inject({ method: init.method as 'GET', url, headers: init.headers, ...(init.body ? { payload: init.body } : {}) });
          if (closed) return never();
          // A response lost on the way back: the server did the work, the browser saw an error.
          if (init.method === 'POST' && failNextPost) {
            failNextPost = false;
            throw new TypeError('Failed to fetch');
          }
          return { ok: res.statusCode < 400, status: res.statusCode, statusText: res.statusMessage, json: async () => (closed ? never() : res.json()) };
        };
      },
    });
    const doc = dom.window.document;
    const until = async (what: string, check: () => boolean) => {
      for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(check(), `console never showed: ${what}`);
    };
    return {
      dom,
      doc,
      sent,
      until,
      close: () => {
        closed = true;
        dom.window.close();
      },
    };
  }

  test('a double click on Queue run creates one run, and a retry after a lost response returns it', async () => {
    const { key } = await s.account({ credits: 50 });
    const c = await openConsole(key, { failNextPost: true });
    try {
      await c.until('the platform list', () => !!c.doc.querySelector('#platforms input[value="openai"]'));
      (c.doc.getElementById('url') as any).value = 'https://acme.example';
      (c.doc.getElementById('target') as any).value = 'Acme';
      (c.doc.getElementById('prompts') as any).value = 'best anvils\nbest hammers';
      const button = c.doc.getElementById('create') as any;
      button.click();
      button.click();
      await c.until('the lost response', () => c.doc.getElementById('create-error')!.textContent !== '');
      button.click();
      await c.until('the run detail', () => !c.doc.getElementById('detail')!.hidden);
      // The answer analysis line (issue #18) renders with the detail.
      await c.until('the analysis line', () => c.doc.getElementById('detail-body')!.textContent!.includes('Sentiment:'));
      const posts = c.sent.filter((r) => r.method === 'POST');
      assert.equal(posts.length, 2, 'the double click sent one request, the retry one more');
      assert.equal(posts[0]!.body.idempotency_key, posts[1]!.body.idempotency_key);
      const runs = (await s.request('GET', '/v1/visibility/runs', { key })).json().runs;
      assert.equal(runs.length, 1);
      assert.equal(runs[0].source, 'console');
      // The next submission is a new draft: a second run.
      await c.until('the button enabled again', () => !button.disabled);
      button.click();
      await c.until('a second POST', () => c.sent.filter((r) => r.method === 'POST').length === 3);
      await c.until('the second run', () => c.doc.querySelectorAll('#runs tr[data-id]').length === 2);
      const third = c.sent.filter((r) => r.method === 'POST')[2]!;
      assert.notEqual(third.body.idempotency_key, posts[0]!.body.idempotency_key);
    } finally {
      c.close();
    }
  });

  test('Content Intelligence runs are queued and listed in the console', async () => {
    const { key } = await s.account({ credits: 50 });
    const c = await openConsole(key);
    try {
      await c.until('the empty list', () => /No Content Intelligence runs yet/.test(c.doc.getElementById('ci-runs')!.textContent ?? ''));
      (c.doc.getElementById('ci-url') as any).value = 'https://acme.example/guide';
      (c.doc.getElementById('ci-create') as any).click();
      await c.until('the listed run', () => c.doc.querySelectorAll('#ci-runs tr[data-id]').length === 1);
      const post = c.sent.find((r) => r.method === 'POST')!;
      assert.equal(post.url, '/v1/content-intelligence/runs');
      assert.equal(post.body.analysis_depth, 'score');
      assert.match(post.body.idempotency_key, /^console_[0-9a-f]{32}$/);
      const list = (await s.request('GET', '/v1/content-intelligence/runs', { key })).json().runs;
      assert.equal(list.length, 1);
      assert.equal(list[0].source, 'console');
      assert.equal(c.doc.querySelector('#ci-runs tr[data-id]')!.getAttribute('data-id'), list[0].run_id);
    } finally {
      c.close();
    }
  });
});
