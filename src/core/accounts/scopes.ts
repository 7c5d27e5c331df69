// The eight API scopes of SPEC 5.6. Default keys carry all of them; read-only keys the two reads.
export const SCOPES = [
  'tests:read',
  'runs:read',
  'pages:content:serialize',
  'visibility:prompts:suggest',
  'visibility:runs:create',
  'content_intelligence:trends:discover',
  'content_intelligence:content:score',
  'content_intelligence:runs:create',
] as const;
export type Scope = (typeof SCOPES)[number];

export const READ_ONLY_SCOPES: Scope[] = ['tests:read', 'runs:read'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
