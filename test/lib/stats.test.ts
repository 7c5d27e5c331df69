// The statistics of tracking: Wilson intervals against published values (Newcombe 1998, Table I,
// method 3, and the 0/n, n/n edges), share of voice, and the two-proportion test; and a run summary
// computed from hand-made probe rows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareProportions, shareOfVoice, wilsonInterval } from '../../src/lib/stats.ts';
import { summarizeProbes } from '../../src/core/visibility/summary.ts';

describe('Wilson score interval', () => {
  // Newcombe RG (1998), Two-sided confidence intervals for the single proportion: comparison of
  // seven methods. Statistics in Medicine 17:857–872, Table I (Wilson score, no continuity correction).
  const published: [number, number, number, number][] = [
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ];
  for (const [k, n, low, high] of published) {
    test(`${k}/${n} matches Newcombe's published interval`, () => {
      assert.deepEqual(wilsonInterval(k, n), { low, high, level: 0.95, method: 'wilson' });
    });
  }

  test('0/n starts at exactly 0 and n/n ends at exactly 1, symmetric around one half', () => {
    for (const n of [1, 2, 5, 10, 37, 1000]) {
      const none = wilsonInterval(0, n)!;
      const all = wilsonInterval(n, n)!;
      assert.equal(none.low, 0);
      assert.equal(all.high, 1);
      assert.ok(none.high > 0 && none.high < 1);
      assert.equal(Math.round((1 - all.low) * 1e4) / 1e4, none.high, `n=${n}`);
    }
    // Published: 0/10 → [0, 0.2775], 10/10 → [0.7225, 1], 5/10 → [0.2366, 0.7634].
    assert.deepEqual([wilsonInterval(0, 10)!.high, wilsonInterval(10, 10)!.low], [0.2775, 0.7225]);
    assert.deepEqual([wilsonInterval(5, 10)!.low, wilsonInterval(5, 10)!.high], [0.2366, 0.7634]);
  });

  test('no trials: no interval', () => {
    assert.equal(wilsonInterval(0, 0), null);
  });

  test('the interval narrows as probes are pooled', () => {
    const w = (k: number, n: number) => wilsonInterval(k, n)!.high - wilsonInterval(k, n)!.low;
    assert.ok(w(5, 10) > w(50, 100) && w(50, 100) > w(500, 1000));
  });
});

describe('share of voice and change significance', () => {
  test('share of voice is null when nobody is mentioned', () => {
    assert.equal(shareOfVoice(0, 0), null);
    assert.equal(shareOfVoice(3, 12), 0.25);
  });

  test('two-proportion z-test: 10/100 → 20/100 is significant at 95% (z 1.98), 10/100 → 14/100 is not', () => {
    const a = compareProportions(10, 100, 20, 100)!;
    assert.equal(a.change, 0.1);
    assert.equal(a.z, 1.9803);
    assert.equal(a.change_significant, true);
    assert.ok(Math.abs(a.p_value! - 0.0477) < 0.0002);
    assert.equal(compareProportions(10, 100, 14, 100)!.change_significant, false);
    assert.equal(compareProportions(0, 10, 0, 10)!.change_significant, false);
    assert.equal(compareProportions(1, 0, 1, 10), null);
  });
});

describe('run summary from probes', () => {
  const probe = (platform: string, status: string, brand: 0 | 1, competitors: string[], domains: string[] = []) => ({
    platform,
    status,
    brand_mentioned: status === 'succeeded' ? brand : null,
    citation_mentioned: status === 'succeeded' ? 0 : null,
    competitors: status === 'succeeded' ? JSON.stringify(competitors) : null,
    citations: JSON.stringify(domains.map((d) => ({ url: `https://${d}/`, domain: d }))),
  });

  test('hand-computed: mention rates, intervals and share of voice overall, per platform and per competitor', () => {
    const probes = [
      probe('openai', 'succeeded', 1, ['Globex']),
      probe('openai', 'succeeded', 1, []),
      probe('openai', 'succeeded', 0, ['Globex', 'Initech']),
      probe('openai', 'errored', 0, []),
      probe('claude', 'succeeded', 0, ['Globex']),
      probe('claude', 'succeeded', 1, ['Initech'], ['acme.example']),
      probe('claude', 'skipped', 0, []),
    ];
    const s = summarizeProbes(probes, ['Globex', 'Initech']);
    // 5 succeeded; target mentioned in 3; Globex in 3; Initech in 2 → voice total 8.
    assert.equal(s.completed_probe_count, 5);
    assert.equal(s.mention_rate, 0.6);
    assert.deepEqual(s.mention_rate_ci, wilsonInterval(3, 5));
    assert.equal(s.share_of_voice, 0.375);
    const globex = s.competitors.find((c) => c.name === 'Globex')!;
    const initech = s.competitors.find((c) => c.name === 'Initech')!;
    assert.deepEqual([globex.mentions, globex.mention_rate, globex.share_of_voice], [3, 0.6, 0.375]);
    assert.deepEqual([initech.mentions, initech.mention_rate, initech.share_of_voice], [2, 0.4, 0.25]);
    assert.deepEqual(initech.mention_rate_ci, wilsonInterval(2, 5));
    // openai: 3 succeeded, target 2, Globex 2, Initech 1 → SOV 2/5.
    const openai = s.by_platform.find((b) => b.platform === 'openai')!;
    assert.deepEqual([openai.probes, openai.succeeded, openai.mention_rate, openai.share_of_voice], [4, 3, 0.6667, 0.4]);
    assert.deepEqual(openai.mention_rate_ci, wilsonInterval(2, 3));
    // claude: 2 succeeded, target 1, Globex 1, Initech 1 → SOV 1/3.
    const claude = s.by_platform.find((b) => b.platform === 'claude')!;
    assert.deepEqual([claude.probes, claude.succeeded, claude.mention_rate, claude.share_of_voice], [3, 2, 0.5, 0.3333]);
    assert.deepEqual(claude.competitors.map((c) => [c.name, c.share_of_voice]), [['Globex', 0.3333], ['Initech', 0.3333]]);
    assert.deepEqual(s.cited_domains, [{ domain: 'acme.example', count: 1 }]);
  });

  test('nobody mentioned: share of voice null; nothing succeeded: rates and intervals null', () => {
    const quiet = summarizeProbes([probe('openai', 'succeeded', 0, [])], ['Globex']);
    assert.equal(quiet.mention_rate, 0);
    assert.equal(quiet.share_of_voice, null);
    assert.equal(quiet.competitors[0].share_of_voice, null);
    const none = summarizeProbes([probe('openai', 'errored', 0, [])], ['Globex']);
    assert.deepEqual([none.mention_rate, none.mention_rate_ci, none.visibility_band, none.competitors[0].mention_rate_ci], [null, null, null, null]);
  });
});
