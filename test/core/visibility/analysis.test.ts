// Answer analysis on real-looking AI answers: whole-word matching, folding, list ranks,
// competitors and citation domains.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeAnswer, createEntityMatcher, registrableDomain } from '../../../src/core/visibility/analysis.ts';
import type { Citation } from '../../../src/platforms/types.ts';

const cite = (url: string, extra: Partial<Citation> = {}): Citation => ({
  title: null,
  url,
  domain: registrableDomain(url),
  ...extra,
});

function analyze(text: string, opts: Partial<Parameters<typeof analyzeAnswer>[0]> = {}) {
  return analyzeAnswer({
    text,
    citations: [],
    targetEntity: 'Acme',
    targetUrl: 'https://www.acme.com/pricing',
    competitors: [],
    ...opts,
  });
}

describe('createEntityMatcher', () => {
  test('never matches inside a longer word', () => {
    assert.deepEqual(createEntityMatcher('Acme').find('Acmeology and AcmeCorp and NotAcme'), []);
    assert.deepEqual(createEntityMatcher('Box').find('Dropbox and Boxed and inbox'), []);
    assert.deepEqual(createEntityMatcher('Go').find('Google, Golang, Gopher, ago'), []);
    assert.deepEqual(createEntityMatcher('Go').find('Written in Go.'), [11]);
  });

  test('possessives, sentence start, punctuation, Markdown bold and links', () => {
    const m = createEntityMatcher('Acme');
    const text = "Acme leads. Acme's plan and Acme’s app. (Acme), \"Acme\"; **Acme** [Acme](https://x.io) #Acme";
    const hits = m.find(text);
    assert.equal(hits.length, 8);
    for (const h of hits) assert.equal(text.slice(h, h + 4), 'Acme');
  });

  test('case, accents and width are folded; offsets point into the original text', () => {
    const m = createEntityMatcher('Nestlé');
    const text = 'Try NESTLE, nestlé, Ｎｅｓｔｌé or Nestle\u0301 but not Nestléa.';
    const hits = m.find(text);
    assert.deepEqual(
      hits.map((h) => text.slice(h, h + 1)),
      ['N', 'n', 'Ｎ', 'N'],
    );
    assert.equal(hits[2], text.indexOf('Ｎ'));
    // The reverse: a plain-ASCII name finds the accented spelling.
    assert.deepEqual(createEntityMatcher('Nestle').find('Über Nestlé.'), [5]);
    // Astral characters before a match keep UTF-16 offsets right.
    const emoji = '🚀🚀 Acme';
    assert.deepEqual(createEntityMatcher('Acme').find(emoji), [5]);
  });

  test('spacing and hyphen variants, multi-word names across whitespace, not across paragraphs', () => {
    const m = createEntityMatcher('Demand IQ');
    const text = 'DemandIQ, Demand-IQ, demand iq, Demand\nIQ, Demand  IQ, Demand\n\nIQ, DemandIQs';
    assert.deepEqual(m.find(text), [0, 10, 21, 32, 43]);
    assert.deepEqual(createEntityMatcher('DemandIQ').find('Demand IQ and Demand-IQ'), [0, 14]);
    assert.deepEqual(createEntityMatcher('HubSpot').find('Hub Spot, hubspot'), [0, 10]);
    // One-letter camel parts are not split: "i Phone" is not "iPhone".
    assert.deepEqual(createEntityMatcher('iPhone').find('i Phone, IPHONE'), [9]);
  });

  test('a camel-case name split into words matches only where each word is capitalized, not as everyday words', () => {
    assert.deepEqual(createEntityMatcher('LinkedIn').find('Your accounts are linked in the dashboard.'), []);
    assert.deepEqual(createEntityMatcher('LinkedIn').find('Post on Linked In or LinkedIn or linkedin.'), [8, 21, 33]);
    assert.deepEqual(createEntityMatcher('PowerPoint').find('Fit each power point socket; power-point too.'), []);
    assert.deepEqual(createEntityMatcher('YouTube').find('Can you tube-feed it? Ask You Tube.'), [26]);
    // A name written with a space is matched case-free in all its spellings, as before.
    assert.deepEqual(createEntityMatcher('Linked In').find('linked in, linked-in, linkedin'), [0, 11, 22]);
  });

  test('trade marks and footnote marks do not hide a name, in the text or in the name', () => {
    const acme = createEntityMatcher('Acme');
    assert.deepEqual(acme.find('Acme™ anvils, Acme℠ service, Acme¹ is cited, Acme® too, Acme²³.'), [0, 14, 29, 45, 56]);
    assert.deepEqual(createEntityMatcher('Acme™').find('Plain Acme here.'), [6]);
    assert.deepEqual(createEntityMatcher('Acme Anvils').find('Acme™ Anvils ship fast.'), [0]);
    // Still a whole-word match: the mark is not a letter that joins words.
    assert.deepEqual(acme.find('Acmes™ and xAcme™'), []);
  });

  test('explicit aliases', () => {
    const m = createEntityMatcher('International Business Machines', ['IBM']);
    assert.deepEqual(m.find('IBM and International Business Machines, not IBMs'), [0, 8]);
  });

  test('names with punctuation', () => {
    assert.deepEqual(createEntityMatcher('Yahoo!').find('Yahoo! Mail and Yahoo search'), [0, 16]);
    assert.deepEqual(createEntityMatcher('AT&T').find('AT&T, at&t and ATT'), [0, 6]);
    assert.deepEqual(createEntityMatcher('C++').find('C++ beats C and C#'), [0]);
    assert.deepEqual(createEntityMatcher('Booking.com').find('Book on Booking.com or booking com'), [8]);
    // An abbreviation's period is written either way, in the name or in the answer.
    assert.deepEqual(createEntityMatcher('Dr Pepper').find('Dr. Pepper, or Dr Pepper Zero'), [0, 15]);
    assert.deepEqual(createEntityMatcher('St. Ives').find('St Ives scrub beats St. Ives lotion'), [0, 20]);
    assert.deepEqual(createEntityMatcher('Mr Muscle').find('a doctor, Mr. Muscle and Mrs Muscle'), [10]);
  });

  test('empty or punctuation-only names match nothing', () => {
    assert.deepEqual(createEntityMatcher('').find('anything'), []);
    assert.deepEqual(createEntityMatcher('   ').find('a b c'), []);
    assert.deepEqual(createEntityMatcher('!!').find('!! wow !!'), []);
  });

  test('fast and linear on a 10 KB answer with many near misses', () => {
    const text = 'Acmeology Acmes acme-ish '.repeat(400) + 'Acme';
    const hits = createEntityMatcher('Acme', ['Acme Corp', 'Acme Inc']).find(text);
    // "acme-ish" counts (hyphen is a boundary), "Acmeology"/"Acmes" do not.
    assert.equal(hits.length, 401);
  });
});

describe('registrableDomain', () => {
  test('normalises hosts and URLs', () => {
    assert.equal(registrableDomain('https://WWW.Acme.COM:8443/a?b#c'), 'acme.com');
    assert.equal(registrableDomain('blog.acme.com'), 'blog.acme.com');
    assert.equal(registrableDomain('acme.com.'), 'acme.com');
    assert.equal(registrableDomain('//cdn.acme.com/x'), 'cdn.acme.com');
    assert.equal(registrableDomain('https://nestlé.com'), 'xn--nestl-fsa.com');
    assert.equal(registrableDomain(''), '');
    assert.equal(registrableDomain('http://'), '');
  });
});

describe('analyzeAnswer', () => {
  test('empty answer', () => {
    const a = analyze('');
    assert.deepEqual(a, {
      brand_mentioned: false,
      text_mentioned: false,
      citation_mentioned: false,
      cited_by_platform: false,
      mention_position: null,
      mention_count: 0,
      list_rank: null,
      competitors: [],
      competitor_positions: {},
      cited_domains: [],
      target_spans: [],
      competitor_spans: {},
      competitor_list_ranks: {},
      target_evidence: null,
      competitor_evidence: {},
      ambiguous_spans: {},
    });
  });

  test('numbered list with bold names, competitors and a mention outside the list', () => {
    const text = [
      'The best CRM tools for small businesses in 2025 are:',
      '',
      '1. **Salesforce** – the enterprise standard, with deep customisation.',
      '2. **HubSpot CRM** – a generous free tier.',
      '   - Good for marketing teams',
      '   - Weak on reporting',
      '3. **Acme** – simple pipelines and fair pricing.',
      '4. **Zoho CRM** – affordable.',
      '',
      "If you value simplicity, Acme's onboarding is the quickest.",
    ].join('\n');
    const a = analyze(text, { competitors: ['Salesforce', 'HubSpot', 'Pipedrive', 'Zoho'] });
    assert.equal(a.brand_mentioned, true);
    assert.equal(a.text_mentioned, true);
    assert.equal(a.mention_count, 2);
    assert.equal(a.mention_position, text.indexOf('Acme'));
    assert.equal(a.list_rank, 3);
    assert.deepEqual(a.competitors, ['Salesforce', 'HubSpot', 'Zoho']);
    assert.equal(a.competitor_positions.HubSpot, text.indexOf('HubSpot'));
  });

  test('bulleted list and nested list ranks', () => {
    const bullets = 'Options:\n\n* Notion\n* Coda\n• Acme\n* Confluence';
    assert.equal(analyze(bullets).list_rank, 3);
    const nested = 'Top picks:\n\n1. Project tools\n   - Asana\n   - Acme\n2. Chat tools\n   - Slack';
    assert.equal(analyze(nested).list_rank, 2);
  });

  test('list formats: "1)", "**1.**", headings-as-list, broken numbered lists', () => {
    assert.equal(analyze('1) Beta\n2) Acme').list_rank, 2);
    assert.equal(analyze('**1.** Beta\n**2.** Gamma\n**3.** Acme').list_rank, 3);
    const headings = [
      '## Best options',
      '### 1. Beta',
      'Beta is popular.',
      '#### Pros',
      '- fast',
      '### 2. Acme',
      'Acme is newer.',
      '### 3. Gamma',
    ].join('\n');
    assert.equal(analyze(headings).list_rank, 2);
    const broken = '1. Beta\n\nBeta explanation.\n\n2. Gamma\n\nMore text.\n\n3. Acme\n\nDone.';
    assert.equal(analyze(broken).list_rank, 3);
    // A paragraph after a list is not in the list.
    assert.equal(analyze('1. Beta\n2. Gamma\n\nAcme is not ranked.').list_rank, null);
    // A new list starting at 1 restarts the ranking.
    assert.equal(analyze('1. Beta\n2. Gamma\n\nOther:\n\n1. Acme').list_rank, 1);
    // A horizontal rule is not a bullet list.
    assert.equal(analyze('- - -\nAcme').list_rank, null);
  });

  test('the brand in a prose answer has no list rank', () => {
    const a = analyze('Acme is a solid choice for freelancers, though Beta has more integrations.');
    assert.equal(a.brand_mentioned, true);
    assert.equal(a.mention_position, 0);
    assert.equal(a.list_rank, null);
  });

  test('Markdown link destinations are not mentions, link text is', () => {
    const onlyUrl = analyze('See [this pricing guide](https://acme.com/pricing) for details.');
    assert.equal(onlyUrl.text_mentioned, false);
    const linked = analyze('Try [Acme](https://acme.com) today.');
    assert.equal(linked.mention_count, 1);
    assert.equal(linked.mention_position, 5);
    const refdef = analyze('Good tools exist [1].\n\n[1]: https://acme.com/blog');
    assert.equal(refdef.text_mentioned, false);
  });

  test('short brands inside words are not mentions', () => {
    // "Box.com" is the target's bare domain: citation evidence, not a mention in words.
    const a = analyze('Dropbox and Box.com compete; the boxer boxed.', { targetEntity: 'Box', targetUrl: 'https://box.com' });
    assert.equal(a.mention_count, 0);
    assert.equal(a.citation_mentioned, true);
    const b = analyze('Dropbox and Box compete; the boxer boxed.', { targetEntity: 'Box', targetUrl: 'https://box.com' });
    assert.equal(b.mention_count, 1);
    assert.equal(b.mention_position, 12);
    const none = analyze('Acmeology is the study of peaks. AcmeWidgets sells widgets.');
    assert.equal(none.brand_mentioned, false);
  });

  test('aliases and accent-insensitive brands', () => {
    const a = analyze('Many prefer NESTLE products.', { targetEntity: 'Nestlé', targetUrl: 'https://nestle.com' });
    assert.equal(a.brand_mentioned, true);
    assert.equal(a.mention_position, 12);
    const b = analyze('Demand-IQ and DemandIQ both appear; so does DIQ.', {
      targetEntity: 'Demand IQ',
      targetUrl: 'https://demand-iq.com',
      aliases: ['DIQ'],
    });
    assert.equal(b.mention_count, 3);
  });

  test('fullwidth brand in a Japanese answer', () => {
    const text = 'おすすめは Ａｃｍｅ です。次はＡｃｍｅの製品。';
    const a = analyze(text);
    assert.equal(a.mention_count, 2);
    assert.equal(a.mention_position, text.indexOf('Ａ'));
  });

  test('citation of a subdomain counts, look-alike domains do not', () => {
    const base = 'Several tools exist.';
    const sub = analyze(base, { citations: [cite('https://blog.acme.com/post')] });
    assert.equal(sub.citation_mentioned, true);
    assert.equal(sub.brand_mentioned, true);
    assert.equal(sub.text_mentioned, false);
    assert.equal(sub.mention_position, null);

    const fakes = analyze(base, {
      citations: [cite('https://acme.com.evil.io/x'), cite('https://notacme.com/'), cite('https://acme.co/')],
    });
    assert.equal(fakes.citation_mentioned, false);
    assert.equal(fakes.brand_mentioned, false);
    assert.deepEqual(fakes.cited_domains, ['acme.com.evil.io', 'notacme.com', 'acme.co']);
  });

  test('resolved_url and domain win over a redirect url; cited_domains are distinct and ordered', () => {
    const redirect = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC';
    const a = analyze('Answer.', {
      citations: [
        { title: 'G2', url: 'https://www.g2.com/x', domain: 'g2.com' },
        { title: 'Acme', url: redirect, domain: '', resolved_url: 'https://www.acme.com/about' },
        { title: 'Other', url: redirect, domain: 'capterra.com' },
        { title: 'G2 again', url: 'https://g2.com/y', domain: 'g2.com' },
      ],
    });
    assert.deepEqual(a.cited_domains, ['g2.com', 'acme.com', 'capterra.com']);
    assert.equal(a.citation_mentioned, true);
  });

  test('competitors: whole words, as given, deduplicated, not the brand inside them', () => {
    const text = 'Compared with Monday.com and ClickUp, Acme is simpler. Asana’s timeline is better; clickup is cheaper.';
    const a = analyze(text, { competitors: ['ClickUp', 'Asana', 'Monday.com', 'Click Up', 'Trello', 'Acme Pro'] });
    assert.deepEqual(a.competitors, ['ClickUp', 'Asana', 'Monday.com']);
    assert.equal(a.competitor_positions.ClickUp, text.indexOf('ClickUp'));
    assert.equal(a.competitor_positions['Monday.com'], 14);
  });
});

describe('an address in the text is citation evidence, never a mention', () => {
  const analyse = (text: string, citations: Citation[] = []) =>
    analyzeAnswer({ text, citations, targetEntity: 'Acme', targetUrl: 'https://www.acme.com/pricing', competitors: [] });

  test('a bare domain, an autolink, a link target and an e-mail address of the target: citation_mentioned, not brand_mentioned', () => {
    for (const text of ['Details at acme.com.', 'See <https://acme.com/docs>.', 'See [the docs](https://acme.com/docs).', 'Write to sales@acme.com.']) {
      const a = analyse(text);
      assert.equal(a.citation_mentioned, true, text);
      assert.equal(a.text_mentioned, false, text);
      assert.equal(a.brand_mentioned, false, text);
    }
  });

  test('a link whose visible text names the brand is a mention; a platform citation of the site still counts', () => {
    assert.equal(analyse('Try [Acme](https://acme.com) today.').brand_mentioned, true);
    const cited = analyse('Several tools fit.', [{ title: 'Pricing', url: 'https://acme.com/pricing', domain: 'acme.com' }]);
    assert.deepEqual([cited.brand_mentioned, cited.text_mentioned, cited.citation_mentioned], [true, false, true]);
  });
});
