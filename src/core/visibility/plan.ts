// Turns a create-run request into the ordered list of probes to fund and run, applying every
// rule of a run's shape before anything is reserved: one way of describing probes,
// prompt-major matrix order, inheritance of language/country/target, model keywords resolved
// to concrete catalog models (and their prices). Pure: no I/O.
import { PLATFORMS, type PlatformName } from '../../platforms/types.ts';
import { AppError } from '../errors.ts';
import { checkCountry, checkLanguage } from '../locale.ts';
import { absoluteUrlMessage, parseHttpUrl } from '../../lib/url.ts';
import { resolveModel, resolvePlatformName, supportsCity, type Catalog } from './catalog.ts';
import { foldName } from '../../text/entity-matcher.ts';
import { registrableDomain } from '../../text/domains.ts';

/**
 * Competitor names once each, first spelling kept: names that fold alike ("Globex", "globex ",
 * "GLOBEX") are one competitor, since the matcher would find the same mentions for each.
 */
function distinctNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const key = foldName(name);
    if (!name || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

export const MAX_PROBES_PER_RUN = 2000;
/** At most this many aliases or domains per brand. */
export const MAX_BRAND_TERMS = 10;

export interface CompetitorInput {
  name: string;
  aliases?: string[];
  domains?: string[];
}

/**
 * What a run knows of the brands beyond their names: the target's aliases and extra domains, and
 * each competitor's. Null when the request gave none (most runs), so such runs read as before.
 */
export interface BrandTerms {
  target_aliases: string[];
  target_domains: string[];
  competitors: { name: string; aliases: string[]; domains: string[] }[];
}

function termList(values: readonly string[] | undefined, field: string): string[] {
  const out = distinctNames(values ?? []);
  if (out.length > MAX_BRAND_TERMS) throw new AppError('invalid_request', `${field} holds at most ${MAX_BRAND_TERMS} entries.`, { field });
  return out;
}

function domainList(values: readonly string[] | undefined, field: string): string[] {
  const out: string[] = [];
  for (const raw of values ?? []) {
    const d = registrableDomain(raw);
    if (!d || !d.includes('.') || /\s/.test(raw.trim())) throw new AppError('invalid_request', `${field}: "${raw}" is not a domain.`, { field, value: raw });
    if (!out.includes(d)) out.push(d);
  }
  if (out.length > MAX_BRAND_TERMS) throw new AppError('invalid_request', `${field} holds at most ${MAX_BRAND_TERMS} entries.`, { field });
  return out;
}

/** The competitors' names (deduplicated as before) and the brand terms of a request. */
export function brandTermsOf(input: Pick<CreateRunInput, 'competitors' | 'target_aliases' | 'target_domains'>): { competitors: string[]; terms: BrandTerms | null } {
  const given = (input.competitors ?? []).map((c) => (typeof c === 'string' ? { name: c } : c));
  const competitors = distinctNames(given.map((c) => c.name ?? ''));
  const details = competitors.map((name) => {
    const c = given.find((g) => foldName(g.name ?? '') === foldName(name))!;
    return { name, aliases: termList(c.aliases, `competitors[${name}].aliases`), domains: domainList(c.domains, `competitors[${name}].domains`) };
  });
  const terms: BrandTerms = {
    target_aliases: termList(input.target_aliases, 'target_aliases'),
    target_domains: domainList(input.target_domains, 'target_domains'),
    competitors: details.filter((c) => c.aliases.length || c.domains.length),
  };
  const empty = !terms.target_aliases.length && !terms.target_domains.length && !terms.competitors.length;
  return { competitors, terms: empty ? null : terms };
}

export interface CreateRunInput {
  url: string;
  target_entity: string;
  prompts?: string[];
  platforms?: PlatformName[];
  probes?: {
    prompt: string;
    platform: PlatformName;
    model?: string;
    language?: string;
    country?: string;
    /** A city within the country (consumer surfaces that take one; others ignore it). */
    city?: string;
    target_entity?: string;
    /** How many times this probe is asked (1..10); defaults to the run's `repeats`. */
    repeats?: number;
  }[];
  /** How many times each (prompt, platform) probe is asked, as separate probes (1..10, default 1). */
  repeats?: number;
  models?: Record<string, string>;
  /** Competitor names, or names with the other names and the domains that count as theirs. */
  competitors?: (string | CompetitorInput)[];
  /** Other names of the target that count as mentions of it (a short name, a former name). */
  target_aliases?: string[];
  /** The target's domains besides the URL's: citations of them count for it and as `owned`. */
  target_domains?: string[];
  language?: string;
  country?: string;
  /** A city within the country, for consumer surfaces that localise below the country. */
  city?: string;
  idempotency_key?: string;
}

export interface PlannedProbe {
  seq: number;
  prompt: string;
  platform: PlatformName;
  modelId: string;
  providerModel: string;
  price: number;
  language: string;
  country: string;
  /** The city given for the probe (stored and sent only for surfaces that take one), else null. */
  city: string | null;
  targetEntity: string;
  /** 1..N: which ask of the same probe this is (the sandbox seeds its answer with it). */
  repeat: number;
}

export const MAX_REPEATS = 10;

export interface RunPlan {
  url: string;
  targetEntity: string;
  competitors: string[];
  brandTerms: BrandTerms | null;
  language: string;
  country: string;
  probes: PlannedProbe[];
  promptCount: number;
  platformCount: number;
}

const clean = (s: string | undefined) => (typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined);

/** A repeats value, checked (the HTTP schema bounds it too; the core is called by every surface). */
function repeatsOf(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_REPEATS) {
    throw new AppError('invalid_request', `repeats must be an integer from 1 to ${MAX_REPEATS}.`, { repeats: value });
  }
  return value;
}

export function planRun(input: CreateRunInput, catalog: Catalog, isAvailable: (p: PlatformName) => boolean): RunPlan {
  if (!parseHttpUrl(input.url)) throw new AppError('invalid_url', absoluteUrlMessage('url', input.url), { url: input.url });
  const targetEntity = clean(input.target_entity);
  if (!targetEntity) throw new AppError('invalid_target_entity');

  const hasMatrix = input.prompts !== undefined || input.platforms !== undefined;
  const hasExplicit = input.probes !== undefined;
  if (hasExplicit && input.models !== undefined) throw new AppError('models_map_requires_prompt_platform_matrix');
  if (hasMatrix === hasExplicit) throw new AppError('invalid_probe_mode');

  const language = checkLanguage(clean(input.language) ?? 'en');
  const country = checkCountry(clean(input.country) ?? 'US').toUpperCase();
  const city = clean(input.city) ?? null;
  const cityFor = (platform: PlatformName, given: string | null) => (given && supportsCity(platform) ? given : null);
  const { competitors, terms: brandTerms } = brandTermsOf(input);
  const probes: PlannedProbe[] = [];
  const runRepeats = repeatsOf(input.repeats, 1);

  if (hasMatrix) {
    const prompts = (input.prompts ?? []).map((p) => p.trim());
    const platforms = input.platforms ?? [];
    if (prompts.length === 0 || platforms.length === 0) {
      throw new AppError('invalid_probe_mode', 'Matrix mode needs at least one prompt and at least one platform.');
    }
    if (prompts.some((p) => p === '')) throw new AppError('invalid_request', 'Prompts must not be empty.');
    const uniquePlatforms = [...new Set(platforms)];
    // Model overrides: keys are platform names (aliases allowed), values ids or keywords.
    const overrides = new Map<PlatformName, string>();
    for (const [key, value] of Object.entries(input.models ?? {})) {
      if (typeof value !== 'string' || value.trim() === '') {
        throw new AppError('model_required', `models.${key} is empty; omit the key to use the default model.`, { platform: key });
      }
      const platform = resolvePlatformName(key);
      if (!platform || !uniquePlatforms.includes(platform)) {
        throw new AppError('model_platform_not_requested', `models names ${JSON.stringify(key)}, which is not in platforms.`, { platform: key });
      }
      if (overrides.has(platform)) {
        throw new AppError('duplicate_model_platform', `Two keys in models resolve to the platform ${platform}.`, { platform });
      }
      overrides.set(platform, value);
    }
    const resolved = new Map(uniquePlatforms.map((p) => [p, resolveModel(catalog, p, overrides.get(p))]));
    // One probe per (prompt, platform) pair of the request, repeats included: a prompt or a
    // platform named twice is asked twice, so probe_count = prompt_count × platform_count.
    // Repeats innermost: prompt, then platform, then repeat, which is also
    // the order partial funding walks.
    for (const prompt of prompts) {
      for (const platform of platforms) {
        const m = resolved.get(platform)!;
        for (let repeat = 1; repeat <= runRepeats; repeat++) {
          probes.push({
            seq: probes.length,
            prompt,
            platform,
            modelId: m.id,
            providerModel: m.providerModel,
            price: m.price,
            language,
            country,
            city: cityFor(platform, city),
            targetEntity,
            repeat,
          });
        }
      }
    }
  } else {
    const list = input.probes ?? [];
    if (list.length === 0) throw new AppError('invalid_probe_mode', 'probes must hold at least one probe.');
    for (const [i, p] of list.entries()) {
      const prompt = p.prompt.trim();
      if (prompt === '') throw new AppError('invalid_request', 'A probe prompt must not be empty.');
      const probeLanguage = p.language === undefined ? language : checkLanguage(clean(p.language) ?? language, `probes[${i}].language`);
      const probeCountry = (p.country === undefined ? country : checkCountry(clean(p.country) ?? country, `probes[${i}].country`)).toUpperCase();
      if (p.target_entity !== undefined && !clean(p.target_entity)) throw new AppError('invalid_target_entity');
      if (p.model !== undefined && p.model.trim() === '') {
        throw new AppError('model_required', 'A probe model is empty; omit it to use the default model.', { platform: p.platform });
      }
      const m = resolveModel(catalog, p.platform, p.model);
      const repeats = repeatsOf(p.repeats, runRepeats);
      for (let repeat = 1; repeat <= repeats; repeat++) {
        probes.push({
          seq: probes.length,
          prompt,
          platform: p.platform,
          modelId: m.id,
          providerModel: m.providerModel,
          price: m.price,
          language: probeLanguage,
          country: probeCountry,
          city: cityFor(p.platform, clean(p.city) ?? city),
          targetEntity: clean(p.target_entity) ?? targetEntity,
          repeat,
        });
      }
    }
  }

  if (probes.length > MAX_PROBES_PER_RUN) {
    throw new AppError('invalid_request', `A run may hold at most ${MAX_PROBES_PER_RUN} probes (this one has ${probes.length}).`);
  }
  const platformsUsed = [...new Set(probes.map((p) => p.platform))];
  for (const p of platformsUsed) {
    if (!isAvailable(p)) {
      throw new AppError('platform_unavailable', `Platform ${p} is not available on this server (no credentials configured).`, { platform: p });
    }
  }
  return {
    url: input.url.trim(),
    targetEntity,
    competitors,
    brandTerms,
    language,
    country,
    probes,
    // Matrix mode counts the request's entries ("prompts in the request", "platforms in
    // the request"); explicit probes count the distinct prompts and platforms they name. Repeats
    // multiply probe_count, not these.
    promptCount: hasMatrix ? (input.prompts ?? []).length : new Set(probes.map((p) => p.prompt)).size,
    platformCount: hasMatrix ? (input.platforms ?? []).length : platformsUsed.length,
  };
}

export { PLATFORMS };
