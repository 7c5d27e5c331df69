// A run's probes as export rows (API-NOTES "Tracking"), read a page at a time so that exporting
// a 10,000-probe run never holds the whole run (or the whole file) in memory: the HTTP route
// streams each page out as CSV (RFC 4180, via csv-stringify) or JSON Lines before reading the next.
import { AppError } from '../errors.ts';
import type { Store } from '../../db/store.ts';
import { probeAnalysisFields } from './analysis/summary.ts';
import { citationBrand, citationSources, classifyCitation, storedBrandTerms } from './citation-sources.ts';

export const EXPORT_COLUMNS = [
  'run_id', 'probe_id', 'prompt', 'platform', 'model', 'engine', 'language', 'country', 'repeat', 'status',
  'brand_mentioned', 'citation_mentioned', 'mention_position', 'list_rank', 'competitors', 'cited_domains', 'citation_urls', 'answer',
  // Additive (answer analysis): the target's prominence, and the judge's verdict where one ran.
  'first_mention_share', 'pawc', 'sentiment', 'recommended',
  // Additive (citation sources): each citation URL's class, in citation_urls' order.
  'citation_classes',
] as const;

/** What JSON Lines rows add: every brand's analysis and the judge (null where none ran). */
type AnalysisColumns = { first_mention_share: number | null; pawc: number | null; sentiment: string | null; recommended: boolean | null };

export interface ExportRow {
  run_id: string;
  probe_id: string;
  prompt: string;
  platform: string;
  model: string;
  engine: string;
  language: string;
  country: string;
  repeat: number;
  status: string;
  brand_mentioned: boolean | null;
  citation_mentioned: boolean | null;
  mention_position: number | null;
  list_rank: number | null;
  competitors: string[];
  cited_domains: string[];
  citation_urls: string[];
  /** The class of each citation URL, in the same order: owned, competitor:<name>, community, reference, video, review, news, other. */
  citation_classes: string[];
  answer: string | null;
  brands: ReturnType<typeof probeAnalysisFields>['brands'];
  judge: ReturnType<typeof probeAnalysisFields>['judge'];
}

const PAGE = 250;
const bool = (v: number | null) => (v === null ? null : v === 1);

/** Throws 404 unless the run is the account's; call before streaming starts (headers not sent yet). */
export async function assertRunVisible(store: Store, accountId: string, runId: string): Promise<void> {
  const run = await store.db.selectFrom('visibility_runs').select('id').where('id', '=', runId).where('account_id', '=', accountId).executeTakeFirst();
  if (!run) throw new AppError('not_found', `Visibility run ${runId} not found.`);
}

/** The run's probes in order, one page of rows per database read. */
export async function* exportRunRows(store: Store, accountId: string, runId: string, opts: { citationCatalog?: string } = {}): AsyncGenerator<ExportRow> {
  const run = await store.db.selectFrom('visibility_runs').select(['url', 'competitors', 'brand_terms']).where('id', '=', runId).where('account_id', '=', accountId).executeTakeFirst();
  const brand = run ? citationBrand({ urls: [run.url], competitors: JSON.parse(run.competitors) as string[], brandTerms: storedBrandTerms(run.brand_terms) }) : { domains: [], competitors: [] };
  const sources = citationSources(opts.citationCatalog);
  const classOf = (url: string) => {
    const c = classifyCitation(url, brand, sources);
    return !c ? 'other' : c.class === 'competitor' ? `competitor:${c.competitor}` : c.class;
  };
  let after = -1;
  for (;;) {
    const page = await store.db
      .selectFrom('visibility_probes')
      .select([
        'id', 'seq', 'prompt', 'platform', 'model', 'engine', 'language', 'country', 'repeat', 'status',
        'brand_mentioned', 'citation_mentioned', 'mention_position', 'list_rank', 'competitors', 'citations', 'answer', 'analysis',
      ])
      .where('run_id', '=', runId)
      .where('account_id', '=', accountId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    for (const p of page) {
      const citations = (p.citations ? JSON.parse(p.citations) : []) as { url?: string; domain?: string }[];
      const urls = citations.map((c) => c.url).filter((u): u is string => !!u);
      yield {
        run_id: runId,
        probe_id: p.id,
        prompt: p.prompt,
        platform: p.platform,
        model: p.model,
        engine: p.engine,
        language: p.language,
        country: p.country,
        repeat: Number(p.repeat),
        status: p.status,
        brand_mentioned: bool(p.brand_mentioned),
        citation_mentioned: bool(p.citation_mentioned),
        mention_position: p.mention_position,
        list_rank: p.list_rank,
        competitors: p.competitors ? (JSON.parse(p.competitors) as string[]) : [],
        cited_domains: [...new Set(citations.map((c) => c.domain).filter((d): d is string => !!d))],
        citation_urls: urls,
        citation_classes: urls.map(classOf),
        answer: p.answer,
        ...probeAnalysisFields(p),
      } as ExportRow;
    }
    if (page.length < PAGE) return;
    after = Number(page[page.length - 1].seq);
  }
}

/** A row as a CSV record: lists joined with "; ", booleans as true/false, nulls empty. */
export function csvRecord(row: ExportRow): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  const target = row.brands?.find((b) => b.role === 'target');
  const flat: ExportRow & AnalysisColumns = {
    ...row,
    first_mention_share: target?.first_mention_share ?? null,
    pawc: target ? target.pawc : null,
    sentiment: target?.sentiment ?? null,
    recommended: target?.recommended ?? null,
  };
  for (const c of EXPORT_COLUMNS) {
    const v = flat[c];
    out[c] = Array.isArray(v) ? v.join('; ') : typeof v === 'boolean' ? String(v) : v;
  }
  return out;
}
