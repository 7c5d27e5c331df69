// The summary folds (SummaryFold, AnalysisFold, CitationFold) let a run read again and again go
// on from its finished prefix: fold the prefix once, then a branch over the rest. These tests
// hold that to folding every probe afresh, at every split point, and check that a branch leaves
// the fold it came from unchanged (so two reads from the same prefix agree).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SummaryFold, summarizeProbes } from '../../../src/core/visibility/summary.ts';
import { AnalysisFold, answerAnalysisSummary } from '../../../src/core/visibility/analysis/summary.ts';
import { CitationFold, citationBrand, citationSources, citingProbe, summarizeCitationSources } from '../../../src/core/visibility/citation-sources.ts';

let seed = 11;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const PLATFORMS = ['openai', 'perplexity', 'gemini', 'chatgpt_app'];
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
