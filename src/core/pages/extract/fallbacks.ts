// When the static HTML says little: the page's JSON-LD body as its text, and the check that a
// few words of chrome left as the "main content" relate to the page's title at all.
import type { PageMetadata } from './metadata.ts';
import { LD_REVIEWS, UNSPACED_SCRIPT } from './rules.ts';

/** The longest article body, post text or description in the page's JSON-LD (not inside a review). */
export function jsonLdBody(meta: PageMetadata): string | null {
  let best: string | null = null;
  const stack: unknown[] = [...meta.jsonLd];
  for (let n = 0; stack.length && n < 500; n++) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...item.slice(0, 50));
    else if (item && typeof item === 'object') {
      for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
        if ((k === 'articleBody' || k === 'text' || k === 'description') && typeof v === 'string') {
          if (!best || v.length > best.length) best = v;
        } else if (v && typeof v === 'object' && !LD_REVIEWS.test(k)) stack.push(v);
      }
    }
  }
  return best;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Lowercased words of three or more letters or digits. */
function titleWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
}

/**
 * True when a short main text shares no word with the page's title once the site's own name
 * (the words of its host name) is set aside. Unknown (false) without a title or in a script
 * written without spaces.
 */
export function unrelatedToTitle(text: string, title: string | null, url: string): boolean {
  if (!title || UNSPACED_SCRIPT.test(title) || UNSPACED_SCRIPT.test(text)) return false;
  let host = '';
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    // no host: nothing to set aside
  }
  const site = new Set(titleWords(host.replace(/[.-]/g, ' ')));
  const inTitle = new Set(titleWords(title).filter((w) => !site.has(w)));
  if (inTitle.size === 0) return false;
  for (const w of titleWords(text)) if (!site.has(w) && inTitle.has(w)) return false;
  return true;
}

/** Runs of letters, digits and _ (as /[\p{L}\p{N}_]+/gu would match), counted without
 * materializing every word: a big page has hundreds of thousands of them. */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let w: boolean;
    if (c < 128) w = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    else {
      const cp = text.codePointAt(i)!;
      w = WORD_CHAR.test(String.fromCodePoint(cp));
      if (cp > 0xffff) i++;
    }
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}
