// The HTTP edge on a real socket: silent connections and slow-body uploads are closed by the
// timeouts, a refused upload is not read to its end, and only UTF-8 JSON is accepted (415).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('HTTP edge', () => {
  let s: TestServer;
  let port: number;
  before(async () => {
    s = await startTestServer(
      { SIGHTLINE_HTTP_HEADERS_TIMEOUT_MS: '500', SIGHTLINE_HTTP_REQUEST_TIMEOUT_MS: '1000', SIGHTLINE_HTTP_KEEPALIVE_TIMEOUT_MS: '500' },
      { worker: false },
    );
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    port = (s.app.server.address() as AddressInfo).port;
  });
  after(async () => s.close());

  /** Opens a socket; resolves `closed` with what the server sent when it closes the connection. */
  function open(): { socket: Socket; closed: Promise<string> } {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
    return { socket, closed };
  }

  test('a connection that sends nothing is closed after the headers timeout', async () => {
    const { closed } = open();
    const t0 = Date.now();
    await closed;
    assert.ok(Date.now() - t0 < 5000);
  });

  test('a slow-body upload (1 byte at a time) is answered 408 and closed after the request timeout', async () => {
    const { key } = await s.account({ credits: 5 });
    const { socket, closed } = open();
    socket.write(`POST /v1/visibility/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    let sending = true;
    void (async () => {
      while (sending && !socket.destroyed) {
        socket.write('{');
        await sleep(200);
      }
    })();
    const received = await closed;
    sending = false;
    assert.match(received, /^HTTP\/1\.1 408/);
  });

  test('after a 401 the server stops reading the upload and closes the connection', async () => {
    const { socket, closed } = open();
    const size = 64 * 1024 * 1024;
    socket.write(`POST /v1/visibility/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let open_ = true;
    void closed.then(() => (open_ = false));
    while (open_ && sent < size) {
      if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
      sent += chunk.length;
    }
    const received = await closed;
    assert.match(received, /^HTTP\/1\.1 401/);
    assert.match(received, /connection: close/i);
    assert.ok(sent < size / 4, `the server stopped reading early (client wrote ${sent} of ${size} bytes)`);
  });

  test('several silent connections are all closed at the headers timeout (the server ends them, not the client)', async () => {
    const t0 = Date.now();
    const sockets = Array.from({ length: 5 }, () => open());
    const received = await Promise.all(sockets.map((x) => x.closed));
    assert.ok(Date.now() - t0 < 5000, `closed after ${Date.now() - t0} ms`);
    // Node answers 408 before it closes a connection that never sent its headers.
    for (const r of received) assert.ok(r === '' || /^HTTP\/1\.1 408/.test(r), r);
  });

  test('an unauthenticated chunked upload is answered 401 first, then the connection closes (/v1 and /mcp)', async () => {
    for (const path of ['/v1/visibility/runs', '/mcp']) {
      const { socket, closed } = open();
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
      let open_ = true;
      void closed.then(() => (open_ = false));
      const chunk = `10000\r\n${' '.repeat(0x10000)}\r\n`;
      let sent = 0;
      while (open_ && sent < 256) {
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
        sent++;
      }
      const received = await closed;
      assert.match(received, /^HTTP\/1\.1 401/, path);
      assert.match(received, /connection: close/i);
      assert.match(received, /"error":"unauthorized"/);
      assert.ok(sent < 256, `${path}: the server stopped reading (client wrote ${sent} chunks of 64 KiB)`);
    }
  });

  test('only UTF-8 JSON: another charset or invalid UTF-8 bytes are 415; charset=utf-8 is fine', async () => {
    const { key } = await s.account({ credits: 5 });
    const post = (contentType: string, payload: Buffer | string) =>
      s.app.inject({ method: 'POST', url: '/v1/visibility/runs', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, payload });
    const body = JSON.stringify({ url: 'https://acme.example', target_entity: 'Acme', prompts: ['q'], platforms: ['openai'] });
    const utf16 = await post('application/json; charset=utf-16', Buffer.from(body, 'utf16le'));
    assert.equal(utf16.statusCode, 415);
    assert.equal(utf16.json().detail.error, 'unsupported_media_type');
    const latin1 = await post('application/json', Buffer.from(body.replace('Acme', 'Acm\u00e9'), 'latin1'));
    assert.equal(latin1.statusCode, 415);
    assert.equal((await post('application/json; charset=UTF-8', body)).statusCode, 200);
    assert.equal((await post('text/plain', body)).statusCode, 415);
  });
});
