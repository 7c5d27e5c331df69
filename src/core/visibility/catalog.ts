// The model catalog: data (catalog/models.json, or SIGHTLINE_CATALOG_PATH), not code. It says
// which models each platform offers, what a probe on each costs, and which model plays the
// roles default / latest / prior. Keywords resolve at run creation to a concrete model.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PLATFORMS, isConsumerPlatform, surfaceOf, type PlatformName, type Surface } from '../../platforms/types.ts';
import { LOCATION_SUPPORT } from '../../platforms/consumer/providers.ts';
import { AppError } from '../errors.ts';
import { formatCredits, parseCredits } from '../money.ts';

const ModelSchema = z.object({
  id: z.string().min(1),
  label: z.string(),
  tier: z.string(),
  provider_model: z.string().min(1),
  credits_per_probe: z.string(),
});
const PlatformSchema = z.object({
  label: z.string(),
  roles: z.object({ default: z.string(), latest: z.string(), prior: z.string() }),
  models: z.array(ModelSchema).min(1),
});
const CatalogSchema = z.object({ platforms: z.record(z.string(), PlatformSchema) });

export interface CatalogModel {
  id: string;
  label: string;
  tier: string;
  providerModel: string;
  price: number; // hundredths per probe
}

export interface CatalogPlatform {
  name: PlatformName;
  label: string;
  roles: { default: string; latest: string; prior: string };
  models: CatalogModel[];
}

export type Catalog = Map<PlatformName, CatalogPlatform>;

export const DEFAULT_CATALOG_PATH = fileURLToPath(new URL('../../../catalog/models.json', import.meta.url));

export function loadCatalog(path: string = DEFAULT_CATALOG_PATH): Catalog {
  const parsed = CatalogSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const catalog: Catalog = new Map();
  for (const [name, p] of Object.entries(parsed.platforms)) {
    if (!(PLATFORMS as readonly string[]).includes(name)) throw new Error(`catalog: unknown platform ${name}`);
    const models = p.models.map((m) => ({
      id: m.id,
      label: m.label,
      tier: m.tier,
      providerModel: m.provider_model,
      price: parseCredits(m.credits_per_probe),
    }));
    for (const role of ['default', 'latest', 'prior'] as const) {
      if (!models.some((m) => m.id === p.roles[role])) throw new Error(`catalog: ${name} role ${role} names unknown model ${p.roles[role]}`);
    }
    const def = models.find((m) => m.id === p.roles.default)!;
    if (def.price < 100 || def.price > 600) throw new Error(`catalog: ${name} default model must cost 1 to 6 credits per probe`);
    catalog.set(name as PlatformName, { name: name as PlatformName, label: p.label, roles: p.roles, models });
  }
  return catalog;
}

const KEYWORDS = new Set(['default', 'latest', 'prior']);

/** Resolves a model value (catalog id or keyword, case-insensitive; undefined = default). */
export function resolveModel(catalog: Catalog, platform: PlatformName, value: string | undefined): CatalogModel {
  const p = catalog.get(platform);
  if (!p) throw new AppError('platform_unavailable', `Platform ${platform} is not offered by this server.`, { platform });
  const wanted = (value ?? 'default').trim();
  const lower = wanted.toLowerCase();
  const id = KEYWORDS.has(lower) ? p.roles[lower as keyof typeof p.roles] : wanted;
  const model = p.models.find((m) => m.id === id) ?? p.models.find((m) => m.id.toLowerCase() === id.toLowerCase());
  if (!model) {
    throw new AppError('unsupported_model', `Model ${JSON.stringify(wanted)} is not selectable for ${platform}.`, {
      platform,
      model: wanted,
      selectable_models: p.models.map((m) => m.id),
    });
  }
  return model;
}

/** Names people use for platforms in the `models` map, folded to the enumeration. */
const PLATFORM_ALIASES: Record<string, PlatformName> = {
  chatgpt: 'openai',
  gpt: 'openai',
  google: 'gemini',
  xai: 'grok',
  anthropic: 'claude',
};

export function resolvePlatformName(key: string): PlatformName | null {
  const k = key.trim().toLowerCase();
  if ((PLATFORMS as readonly string[]).includes(k)) return k as PlatformName;
  return PLATFORM_ALIASES[k] ?? null;
}

/** Where a platform's probes can be localised: API platforms take the country (no city). */
export function locationSupport(p: PlatformName): { supports_country: boolean; supports_city: boolean } {
  if (!isConsumerPlatform(p)) return { supports_country: true, supports_city: false };
  const s = LOCATION_SUPPORT[p];
  return { supports_country: s.country, supports_city: s.city };
}

/** Whether a platform's probes take a city (consumer surfaces that localise below the country). */
export function supportsCity(p: PlatformName): boolean {
  return locationSupport(p).supports_city;
}

/** A selectable model of a platform as the model listing shows it. */
export interface ListedModel {
  id: string;
  label: string;
  tier: string;
  default: boolean;
  roles: (keyof CatalogPlatform['roles'])[];
  credits_per_probe: string;
  engine: string;
  available: boolean;
  surface: Surface;
  provider: string | null;
  supports_country: boolean;
  supports_city: boolean;
}

export function catalogListing(
  catalog: Catalog,
  availability: (p: PlatformName) => { engine: string; available: boolean; provider?: string | null },
) {
  const platforms: Record<string, ListedModel[]> = {};
  const roles: Record<string, CatalogPlatform['roles']> = {};
  for (const p of catalog.values()) {
    const a = availability(p.name);
    platforms[p.name] = p.models.map((m) => ({
      id: m.id,
      label: m.label,
      tier: m.tier,
      default: m.id === p.roles.default,
      roles: (['default', 'latest', 'prior'] as const).filter((r) => p.roles[r] === m.id),
      credits_per_probe: formatCredits(m.price),
      engine: a.engine,
      available: a.available,
      surface: surfaceOf(p.name),
      provider: isConsumerPlatform(p.name) ? (a.provider ?? null) : null,
      ...locationSupport(p.name),
    }));
    roles[p.name] = { ...p.roles };
  }
  return { platforms, roles };
}
