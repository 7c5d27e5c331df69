// findAddresses (src/text/links.ts) finds the tokens that may hold an address from their hints
// instead of splitting the answer into words. Held here to what the word split gave: linkify-it's
// ranges of every whitespace-separated token with a hint, each token read alone (on a text of one
// token both ways are the same), on random texts of words, addresses, Unicode spaces, astral
// characters and Markdown links.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findAddresses, type AddressRange } from '../../src/text/links.ts';

/** The word split findAddresses did before: each `\S+` token with a hint, read alone, its ranges moved to the token. */
function byWords(text: string): AddressRange[] {
  const out: AddressRange[] = [];
  for (const token of text.matchAll(/\S+/gu)) {
    if (!/\.[^\s.]|@|:\/\//u.test(token[0])) continue;
    for (const r of findAddresses(token[0])) if (r.kind !== 'destination') out.push({ ...r, start: token.index + r.start, end: token.index + r.end });
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

const PIECES = [
  'acme', 'Acme CRM', 'the', 'best', 'e.g.', 'Node.js', 'acme.com', 'www.acme.io', 'https://acme.com/pricing?x=1', 'http://a.b',
  'mail@acme.io', '@handle', 'a@b', 'x://y', '://', '.', '..', '...com', '.com', 'com.', '😀', 'é.fr', 'ü@x.de', '[Acme](https://acme.com)',
  '[ref]: https://ref.org/x', '(acme.com)', '"acme.com"', 'acme.com,', 'v1.2', '3.14', 'a.b.c.d', 'foo/bar.baz', '\uD83D', 'x\uDE00.y',
];
const SPACES = [' ', ' ', ' ', '\n', '\t', '\u00a0', '\u3000', '\u2009', '\u202f', '\ufeff', '\r\n', ''];

function randomText(seed: number): string {
  let s = seed >>> 0;
  const next = (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
  let text = '';
  const words = 1 + next(40);
  for (let i = 0; i < words; i++) text += PIECES[next(PIECES.length)]! + SPACES[next(SPACES.length)]!;
  return next(4) === 0 ? SPACES[next(SPACES.length)]! + text : text;
}

describe('findAddresses', () => {
  it('finds what the word split found, on 20,000 random texts', () => {
    for (let seed = 1; seed <= 20_000; seed++) {
      const text = randomText(seed);
      const found = findAddresses(text).filter((r) => r.kind !== 'destination');
      assert.deepEqual(found, byWords(text), `seed ${seed}: ${JSON.stringify(text)}`);
    }
  });

  it('keeps the Markdown destinations and stays repeatable', () => {
    const text = 'See [Acme](https://acme.com/x) and acme.io, or mail@acme.io.\n[1]: https://ref.org/a';
    const first = findAddresses(text);
    assert.deepEqual(findAddresses(text), first);
    assert.deepEqual(
      first.map((r) => [text.slice(r.start, r.end), r.kind, r.domain]),
      [
        ['(https://acme.com/x)', 'destination', 'acme.com'],
        ['https://acme.com/x', 'url', 'acme.com'],
        ['acme.io', 'domain', 'acme.io'],
        ['mail@acme.io', 'email', 'acme.io'],
        ['[1]: https://ref.org/a', 'destination', 'ref.org'],
        ['https://ref.org/a', 'url', 'ref.org'],
      ],
    );
  });
});
