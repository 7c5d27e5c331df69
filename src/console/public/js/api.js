// The console's one way to the server: same-origin fetch with the session cookie, the CSRF token
// on every state-changing request, and errors turned into sentences a user can act on.
let csrfToken = '';
let onSignedOut = () => {};
let onChanged = () => {};

export function setCsrfToken(token) {
  csrfToken = token || '';
}

/** Called when a request answers 401: the session ended (signed out elsewhere, expired). */
export function whenSignedOut(fn) {
  onSignedOut = fn;
}

/**
 * Called after every successful change made through the public API or the operator's endpoints:
 * the things that can move a balance (a run queued or cancelled, a paid call, a grant).
 */
export function whenChanged(fn) {
  onChanged = fn;
}

export class ApiError extends Error {
  constructor(status, body) {
    super(messageOf(status, body));
    this.status = status;
    this.body = body;
    this.code = body && body.detail && !Array.isArray(body.detail) ? body.detail.error : status === 422 ? 'validation' : 'http_' + status;
  }
}

function messageOf(status, body) {
  const detail = body && body.detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => `${(d.loc || []).filter((p) => p !== 'body').join('.') || 'request'}: ${d.msg}`).join('; ');
  }
  if (detail && detail.message) return detail.message;
  if (status === 0) return 'The server could not be reached. Check your connection and try again.';
  return `The server answered ${status}.`;
}

export async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, null);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = new ApiError(res.status, data);
    if (res.status === 401 && !path.startsWith('/console/api/sign-in') && !path.startsWith('/console/api/setup')) onSignedOut();
    throw err;
  }
  if (method !== 'GET' && (path.startsWith('/v1/') || path.startsWith('/console/api/operator/'))) onChanged();
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body) => api('POST', path, body === undefined ? {} : body);
export const patch = (path, body) => api('PATCH', path, body);
export const del = (path) => api('DELETE', path);

/** A random idempotency key for one submitted form, so a retried click never queues twice. */
export function idempotencyKey() {
  // getRandomValues, not randomUUID: the latter exists only on https or localhost.
  return 'console-' + Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
