// What every console endpoint shares, apart from the routes that register them: who may call
// an endpoint (its `console.access`), the context the endpoints get, and the signed-in user.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../core/accounts/sessions.ts';
import { AppError } from '../core/errors.ts';
import type { Core } from '../core/index.ts';
import type { Mailer } from '../core/accounts/mail.ts';

export type ConsoleAccess = 'public' | 'user' | 'operator';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Console endpoints: who may call it, and its activity-log name (console.<action>). */
    console?: { access: ConsoleAccess; action: string; authLimited?: boolean };
  }
}

/** What the serving process knows of one provider key (src/server/key-check.ts), for the operator page. */
export interface ProviderKeyView {
  provider: string;
  status: string;
  source: 'check' | 'probe';
  at: string;
  http_status?: number;
  check?: string;
  detail?: string;
}

export interface ConsoleContext {
  core: Core;
  /** The provider keys as this process last found them (none until a check or a probe). */
  providerKeys(): ProviderKeyView[];
  mailer: Mailer;
  /** Base of links in mail and printed by the CLI. */
  publicUrl: string;
  /**
   * Runs `task` once the response has gone out, never awaited by the request: work whose duration
   * would tell a caller something (mail to an existing user) must not delay the answer. A failure
   * is logged; closing the server waits for tasks still running.
   */
  afterResponse(reply: FastifyReply, what: string, task: () => Promise<void>): void;
}

/** The signed-in user of a 'user' or 'operator' route (the hook has checked it). */
export function userOf(request: FastifyRequest): SessionUser {
  if (!request.consoleSession) throw new AppError('unauthorized', 'Sign in first.');
  return request.consoleSession;
}
