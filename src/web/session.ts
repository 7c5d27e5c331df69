// Console sessions at the HTTP edge: the session cookie, its CSRF check, and the principal a
// signed-in user acts as. A request with a bearer key never looks at cookies; one without a key
// but with the session cookie acts for the user's account with every scope, as the `console`
// access source. Every state-changing request made with a cookie must carry the session's CSRF
// token in `x-csrf-token` (a cross-site page can send the cookie but cannot read the token), and a
// browser's cross-site request (Sec-Fetch-Site) is refused outright.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { Principal } from '../core/accounts/accounts.ts';
import { SCOPES } from '../core/accounts/scopes.ts';
import { csrfMatches, resolveSession, SESSION_MAX_AGE_MS, type SessionUser } from '../core/accounts/sessions.ts';
import { AppError } from '../core/errors.ts';
import type { Core } from '../core/index.ts';
import { cookiePolicyOf } from './public-origin.ts';

/** The cookies' names; behind an https public origin they carry the `__Host-` prefix (public-origin.ts). */
export const SESSION_COOKIE = 'sightline_session';
/** Before sign-in: a random value the page echoes in x-csrf-token (double submit) on the sign-in forms. */
export const PRE_SESSION_CSRF_COOKIE = 'sightline_csrf';
const cookieName = (request: FastifyRequest, name: string) => cookiePolicyOf(request).prefix + name;
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The console session of this request: undefined until looked up, null when there is none. */
    consoleSession?: SessionUser | null;
  }
}

export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  const header = request.headers.cookie;
  return header ? parseCookies(header) : {};
}

export async function sessionOf(core: Core, request: FastifyRequest): Promise<SessionUser | null> {
  if (request.consoleSession === undefined) {
    request.consoleSession = (await resolveSession(core.store.db, cookiesOf(request)[cookieName(request, SESSION_COOKIE)])) ?? null;
  }
  return request.consoleSession;
}

/** Refuses a state-changing request whose CSRF token is not `expected` (GETs pass). */
export function checkCsrf(request: FastifyRequest, expected: string | undefined): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('csrf_failed', 'Cross-site requests are refused.');
  const sent = request.headers[CSRF_HEADER];
  if (!expected || !csrfMatches(expected, typeof sent === 'string' ? sent : undefined)) throw new AppError('csrf_failed');
}

/** What a signed-in user acts as on the API: their account, every scope, no key. */
export function sessionPrincipal(session: SessionUser): Principal {
  return { accountId: session.accountId, keyId: session.userId, keyPrefix: null, kind: 'api', scopes: new Set(SCOPES), session };
}

/**
 * The principal of a request that has no bearer key: its session's, CSRF-checked, or undefined
 * when it has no (live) session.
 */
export async function consolePrincipal(core: Core, request: FastifyRequest): Promise<Principal | undefined> {
  if (!request.headers.cookie) return undefined;
  const session = await sessionOf(core, request);
  if (!session) return undefined;
  checkCsrf(request, session.csrfToken);
  if (session.accountStatus === 'suspended') throw new AppError('account_suspended');
  return sessionPrincipal(session);
}

/** The pre-session CSRF cookie's value, if the browser sent one. */
export function preSessionCsrfOf(request: FastifyRequest): string | undefined {
  return cookiesOf(request)[cookieName(request, PRE_SESSION_CSRF_COOKIE)];
}

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  // request.protocol is https only on a direct TLS socket or as a trusted proxy says (SIGHTLINE_TRUST_PROXY).
  const secure = cookiePolicyOf(request).secure || request.protocol === 'https';
  return { httpOnly: true, secure, sameSite: 'strict' as const, path: '/', maxAge: maxAgeSeconds };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header('set-cookie', serializeCookie(cookieName(request, SESSION_COOKIE), token, cookieOptions(request, SESSION_MAX_AGE_MS / 1000)));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', serializeCookie(cookieName(request, SESSION_COOKIE), '', cookieOptions(request, 0)));
}

export function setPreSessionCsrfCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.header('set-cookie', serializeCookie(cookieName(request, PRE_SESSION_CSRF_COOKIE), value, cookieOptions(request, 24 * 3600)));
}
