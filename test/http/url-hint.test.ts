// A site typed without a scheme (acme.com), as people say it, is refused with the URL that was
// probably meant in the message, over the API (and so the CLI and MCP, which show its message).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { absoluteUrlMessage } from '../../src/lib/url.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

test('absoluteUrlMessage names the https URL for a bare host, and only for one', () => {
  assert.equal(absoluteUrlMessage('url', 'acme.com'), 'url must be an absolute http(s) URL, such as https://acme.com.');
  assert.equal(absoluteUrlMessage('url', ' www.acme.co.uk/pricing?x=1 '), 'url must be an absolute http(s) URL, such as https://www.acme.co.uk/pricing?x=1.');
  for (const v of ['acme', 'ftp://acme.com', 'mailto:a@acme.com', 'a b.com', '', 42, 'user@acme.com']) {
    assert.equal(absoluteUrlMessage('url', v), 'url must be an absolute http(s) URL.', String(v));
  }
  assert.equal(absoluteUrlMessage('definition.url', 'acme.com'), 'definition.url must be an absolute http(s) URL, such as https://acme.com.');
});

describe('a bare domain refused with the fix in the message', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s.close();
  });

  test('visibility runs, their quote, projects and tracked tests', async () => {
    const { key } = await s.account({ credits: 100 });
    const run = { url: 'acme-boards.example', target_entity: 'Acme', prompts: ['best kanban'], platforms: ['openai'] };
    for (const [path, body] of [
      ['/v1/visibility/runs', run],
      ['/v1/visibility/runs/estimate', run],
      ['/v1/projects', { url: 'acme-boards.example', brand: { name: 'Acme' }, platforms: ['openai'] }],
      ['/v1/tests', { test_type: 'content_intelligence', definition: { url: 'acme-boards.example' } }],
    ] as const) {
      const res = await s.request('POST', path, { key, body });
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      const { detail } = res.json();
      assert.equal(detail.error, 'invalid_url', path);
      assert.match(detail.message, /must be an absolute http\(s\) URL, such as https:\/\/acme-boards\.example\.$/, path);
    }
  });
});
