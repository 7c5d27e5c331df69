// Filter parameters (status, kind, test_type): a value outside the filter's set passed the schema
// but names no filter, so it is a 400 invalid_filter, not a 422; known values filter.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('filter parameters', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startTestServer();
    ({ key } = await s.account({ credits: 5 }));
  });
  after(async () => s.close());

  const cases: [string, string, string][] = [
    ['/v1/visibility/runs', 'status', 'completed'],
    ['/v1/content-intelligence/runs', 'status', 'queued'],
    ['/v1/activity', 'kind', 'reads'],
    ['/v1/tests', 'test_type', 'ai_citations'],
    ['/v1/reports/by-url?url=https://acme.example', 'test_type', 'content_intelligence'],
  ];
  for (const [path, name, known] of cases) {
    test(`${path}: ${name}=bogus is 400 invalid_filter; ${name}=${known} filters`, async () => {
      const sep = path.includes('?') ? '&' : '?';
      const bad = await s.request('GET', `${path}${sep}${name}=bogus`, { key });
      assert.equal(bad.statusCode, 400, bad.body);
      const detail = bad.json().detail;
      assert.equal(detail.error, 'invalid_filter');
      assert.equal(detail.parameter, name);
      assert.ok(detail.allowed.includes(known));
      assert.match(detail.message, new RegExp(`${name} must be one of`));
      const good = await s.request('GET', `${path}${sep}${name}=${known}`, { key });
      assert.equal(good.statusCode, 200, good.body);
      const doc = (await s.request('GET', '/openapi.json')).json();
      assert.ok(doc.paths[path.split('?')[0]!].get.responses['400'], `${path} documents its 400`);
    });
  }
});
