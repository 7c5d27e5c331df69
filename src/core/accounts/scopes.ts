// The API scopes: the eight of the first release, plus the scopes added since (webhooks, sites). A key made with
// the default scope set is stored as ["*"] and carries every scope, including scopes added later;
// keys stored before that with the full original eight are read the same way.
export const SCOPES = [
  'tests:read',
  'runs:read',
  'pages:content:serialize',
  'visibility:prompts:suggest',
  'visibility:runs:create',
  'content_intelligence:trends:discover',
  'content_intelligence:content:score',
  'content_intelligence:runs:create',
  'webhooks:write',
  'sites:read',
  'sites:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const READ_ONLY_SCOPES: Scope[] = ['tests:read', 'runs:read'];

/** What a default key stores: every scope, now and later. */
export const ALL_SCOPES_MARKER = '*';

/** The eight scopes every default key carried before more were added. */
const ORIGINAL_SCOPES = SCOPES.slice(0, 8) as readonly string[];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The stored form of a key's scopes: ["*"] for the full set, else the list. */
export function storedScopes(scopes: readonly Scope[]): string {
  const set = new Set(scopes);
  return JSON.stringify(SCOPES.every((s) => set.has(s)) ? [ALL_SCOPES_MARKER] : [...set]);
}

/** Reads a stored scope list: ["*"] (or the legacy full original set) is every scope there is. */
export function parseStoredScopes(json: string): Scope[] {
  const list = JSON.parse(json) as string[];
  if (list.includes(ALL_SCOPES_MARKER) || ORIGINAL_SCOPES.every((s) => list.includes(s))) return [...SCOPES];
  return list.filter(isScope);
}
