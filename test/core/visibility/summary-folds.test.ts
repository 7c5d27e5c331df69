// The summary folds (SummaryFold, AnalysisFold, CitationFold, and by prompt, location and
// surface PromptFold, LocationFold, SurfaceFold) let a run read again and again go
// on from its finished prefix: fold the prefix once, then a branch over the rest. These tests
// hold that to folding every probe afresh, at every split point, and check that a branch leaves
// the fold it came from unchanged (so two reads from the same prefix agree).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SummaryFold, summarizeProbes } from '../../../src/core/visibility/summary.ts';
import { AnalysisFold, answerAnalysisSummary } from '../../../src/core/visibility/analysis/summary.ts';
import { CitationFold, citationBrand, citationSources, citingProbe, summarizeCitationSources } from '../../../src/core/visibility/citation-sources.ts';
import { groupByPrompt, promptEntry, PromptFold } from '../../../src/core/visibility/by-prompt.ts';
import { LocationFold, type RunLocation } from '../../../src/core/visibility/locations.ts';
import { compareSurfaces, SurfaceFold } from '../../../src/core/visibility/surface-comparison.ts';
import { locationSupport } from '../../../src/core/visibility/catalog.ts';
import type { PlatformName } from '../../../src/platforms/types.ts';

let seed = 11;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const PLATFORMS = ['openai', 'perplexity', 'gemini', 'chatgpt_app'];
/** API platforms with their consumer surfaces, which take a country, a city or neither. */
const SURFACES = ['openai', 'gemini', 'chatgpt_app', 'copilot', 'google_ai_overview', 'google_ai_mode', 'claude'];
const HOSTS = ['www.acme.example', 'globex.com', 'reddit.com', 'en.wikipedia.org', 'nytimes.com', 'youtube.com', 'blog.other.io'];
const NAMES = ['Acme CRM', 'Globex', 'Initech', 'Hooli', 'hooli', 'Umbrella', 'Stark'];

/** A probe row as stored (0/1 flags, JSON text), random but with many repeats (ties, shared URLs, entities). */
function row(i: number) {
  const status = pick(['succeeded', 'succeeded', 'succeeded', 'errored', 'cancelled', 'skipped']);
  const succeeded = status === 'succeeded';
  const citations = Array.from({ length: Math.floor(rnd() * 4) }, () => {
    const host = pick(HOSTS);
    return { url: `https://${host}/${pick(['a', 'b', 'c'])}`, domain: host.replace(/^www\./, ''), title: 't' };
  });
  const brand = (name: string, role: 'target' | 'competitor') => {
    const mentioned = rnd() < 0.6;
    return { name, role, mentioned, mention_position: null, list_rank: null, first_mention_share: mentioned && rnd() < 0.8 ? rnd() : null, pawc: mentioned ? rnd() : 0, sentiment: mentioned ? pick(['positive', 'neutral', 'negative', null]) : null, recommended: null };
  };
  const analysis = succeeded && rnd() < 0.9 ? JSON.stringify({ brands: [brand('Acme CRM', 'target'), brand('Globex', 'competitor'), brand('Initech', 'competitor')], judge: null, judge_error: null, entities: Array.from({ length: Math.floor(rnd() * 4) }, () => pick(NAMES)) }) : null;
  return {
    seq: i,
    prompt: `prompt ${Math.floor(rnd() * 5)}`,
    platform: pick(PLATFORMS),
    country: pick(['US', 'DE', 'DE']),
    city: pick([null, 'Munich', 'Berlin']),
    status,
    brand_mentioned: succeeded ? (rnd() < 0.5 ? 1 : 0) : null,
    citation_mentioned: succeeded ? (rnd() < 0.3 ? 1 : 0) : null,
    ai_answer_present: succeeded ? (rnd() < 0.5 ? 1 : 0) : null,
    competitors: succeeded ? JSON.stringify([...new Set(Array.from({ length: Math.floor(rnd() * 3) }, () => pick(['Globex', 'Initech', 'Hooli'])))]) : null,
    citations: succeeded ? JSON.stringify(citations) : null,
    analysis,
  };
}

test('a fold of a prefix and a branch over the rest give what one fold of every probe gives', () => {
  const competitors = ['Globex', 'Initech'];
  const brand = citationBrand({ urls: ['https://www.acme.example/crm'], competitors });
  const catalog = citationSources();
  for (let round = 0; round < 20; round++) {
    const rows = Array.from({ length: 1 + Math.floor(rnd() * 60) }, (_, i) => row(i));
    const succeeded = (rs: typeof rows) => rs.filter((r) => r.status === 'succeeded').map(citingProbe);
    const cold = {
      summary: summarizeProbes(rows, competitors),
      analysis: answerAnalysisSummary(rows, competitors),
      citations: summarizeCitationSources(succeeded(rows), brand, catalog),
    };
    for (let split = 0; split <= rows.length; split++) {
      const prefix = { summary: new SummaryFold(competitors), analysis: new AnalysisFold(competitors), citations: new CitationFold(brand, catalog) };
      for (const r of rows.slice(0, split)) {
        prefix.summary.add(r);
        prefix.analysis.add(r);
        if (r.status === 'succeeded') prefix.citations.add(citingProbe(r));
      }
      // Two branches from the same prefix: the first must not change what the second starts from.
      for (let b = 0; b < 2; b++) {
        const s = prefix.summary.branch();
        const a = prefix.analysis.branch();
        const c = prefix.citations.branch();
        for (const r of rows.slice(split)) {
          s.add(r);
          a.add(r);
          if (r.status === 'succeeded') c.add(citingProbe(r));
        }
        const at = `round ${round}, split ${split}, branch ${b}`;
        assert.deepEqual(s.result(), cold.summary, at);
        assert.deepEqual(a.result(), cold.analysis, at);
        assert.deepEqual(c.result(), cold.citations, at);
      }
      // And the prefix fold itself still reads as the prefix alone.
      assert.deepEqual(prefix.summary.result(), summarizeProbes(rows.slice(0, split), competitors));
      assert.deepEqual(prefix.citations.result(), summarizeCitationSources(succeeded(rows.slice(0, split)), brand, catalog));
    }
  }
});

test('by_prompt: an entry of probes none of which succeeded is shared while they run, and equals a fresh one', async () => {
  const { summarizeByPrompt, promptEntry } = await import('../../../src/core/visibility/by-prompt.ts');
  const probe = (prompt: string, platform: string, status: string) => ({ prompt, platform, status, brand_mentioned: null, citation_mentioned: null, competitors: null, citations: null });
  const queued = [probe('best crm', 'openai', 'queued'), probe('best crm', 'claude', 'queued'), probe('top crm', 'openai', 'queued')];
  const running = [probe('best crm', 'openai', 'running'), probe('best crm', 'claude', 'errored'), probe('top crm', 'openai', 'running')];
  const a = summarizeByPrompt(queued, ['Globex']);
  const b = summarizeByPrompt(running, ['Globex']);
  assert.equal(a[0], b[0], 'the same entry object while nothing succeeded');
  assert.deepEqual(a[0], promptEntry('best crm', running.slice(0, 2), ['Globex']));
  // Other competitors, platforms or prompts are other entries.
  assert.notEqual(summarizeByPrompt(running, ['Initech'])[0], b[0]);
  assert.notEqual(summarizeByPrompt([running[1]!, running[0]!], ['Globex'])[0], b[0]);
  assert.deepEqual(summarizeByPrompt([probe('best crm', 'openai', 'succeeded'), running[1]!], ['Globex'])[0], promptEntry('best crm', [probe('best crm', 'openai', 'succeeded'), running[1]!], ['Globex']));
  // A prompt with the same platforms is built from the first one's entry: the same JSON as a fresh entry.
  const other = [probe('crm for startups', 'openai', 'queued'), probe('crm for startups', 'claude', 'running')];
  const [built] = summarizeByPrompt(other, ['Globex']);
  assert.equal(built!.by_platform, a[0]!.by_platform, 'parts shared with the first entry');
  assert.equal(JSON.stringify(built), JSON.stringify(promptEntry('crm for startups', other, ['Globex'])));
});

const support = (p: string) => locationSupport(p as PlatformName);

/** Locations as the summary lists them, counted without a fold: answers per place and platform, most first (ties in order of first answer). */
function locationsAfresh(rows: readonly { platform: string; status: string; country: string | null; city: string | null }[]): RunLocation[] {
  const places: RunLocation[] = [];
  for (const r of rows) {
    if (r.status !== 'succeeded') continue;
    const takes = support(r.platform);
    const country = takes.supports_country ? r.country : null;
    const city = takes.supports_city ? r.city : null;
    let place = places.find((x) => x.country === country && x.city === city);
    if (!place) places.push((place = { country, city, platforms: [] }));
    const entry = place.platforms.find((x) => x.platform === r.platform);
    if (entry) entry.answers++;
    else place.platforms.push({ platform: r.platform, answers: 1 });
  }
  const answers = (x: RunLocation) => x.platforms.reduce((n, e) => n + e.answers, 0);
  return places.sort((a, b) => answers(b) - answers(a));
}

test('by prompt, location and surface: a fold of a prefix and a branch over the rest give what a computation afresh gives', () => {
  const competitors = ['Globex', 'Initech'];
  for (let round = 0; round < 20; round++) {
    const rows = Array.from({ length: 1 + Math.floor(rnd() * 60) }, (_, i) => ({ ...row(i), platform: pick(SURFACES) }));
    const cold = {
      prompts: [...groupByPrompt(rows)].map(([prompt, list]) => promptEntry(prompt, list, competitors)),
      locations: locationsAfresh(rows),
      surfaces: compareSurfaces(rows, 'Acme CRM'),
    };
    if (round === 0) assert.ok(cold.surfaces.length > 1 && cold.locations.length > 2, 'several pairs and places to compare');
    for (let split = 0; split <= rows.length; split++) {
      const prefix = { prompts: new PromptFold(competitors), locations: new LocationFold(support), surfaces: new SurfaceFold('Acme CRM') };
      for (const r of rows.slice(0, split)) {
        prefix.prompts.add(r);
        prefix.locations.add(r);
        prefix.surfaces.add(r);
      }
      // Read the prefix first, as a kept fold is (its entries are built then, and reused by the branches).
      assert.deepEqual(prefix.prompts.result(), cold.prompts.filter((e) => rows.slice(0, split).some((r) => r.prompt === e.prompt)).map((e) => promptEntry(e.prompt, rows.slice(0, split).filter((r) => r.prompt === e.prompt), competitors)));
      assert.deepEqual(prefix.locations.result(), locationsAfresh(rows.slice(0, split)));
      assert.deepEqual(prefix.surfaces.result(), compareSurfaces(rows.slice(0, split), 'Acme CRM'));
      for (let b = 0; b < 2; b++) {
        const p = prefix.prompts.branch();
        const l = prefix.locations.branch();
        const f = prefix.surfaces.branch();
        for (const r of rows.slice(split)) {
          p.add(r);
          l.add(r);
          f.add(r);
        }
        const at = `round ${round}, split ${split}, branch ${b}`;
        assert.deepEqual(p.result(), cold.prompts, at);
        assert.deepEqual(l.result(), cold.locations, at);
        assert.deepEqual(f.result(), cold.surfaces, at);
      }
    }
  }
});
