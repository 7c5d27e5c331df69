// The typed sightline client: openapi-fetch over the types openapi-typescript generated from the
// server's own /openapi.json (src/client/schema.d.ts, `npm run client:generate`). The user CLI is
// built on it, so the CLI exercises the client and the document together.
import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { paths, operations, components } from './schema.d.ts';

export interface ClientOptions {
  /** The server, e.g. http://localhost:8080 (no /v1). */
  baseUrl: string;
  /** An API key, svc_api_live_… */
  apiKey: string;
}

export function createSightlineClient(opts: ClientOptions) {
  return createClient<paths>({ baseUrl: opts.baseUrl.replace(/\/+$/, ''), headers: { authorization: `Bearer ${opts.apiKey}` } });
}

export type SightlineClient = ReturnType<typeof createSightlineClient>;
