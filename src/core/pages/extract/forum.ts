// Forum and Q&A pages, once the extractor treats a page as one (../page-kind.ts): there the replies
// are the content, and what repeats on every post is not.
import { isElement, walk, type Element } from './dom.ts';
import { POST_CHROME } from './rules.ts';

/** Quotes of earlier posts, signatures and poster details inside the main boxes of a thread. */
export function postChrome(roots: Element[]): Element[] {
  const quotes: Element[] = [];
  for (const r of roots) {
    walk(r, (n) => {
      if (!isElement(n)) return false;
      if (n.attribs.class && POST_CHROME.test(n.attribs.class)) {
        quotes.push(n);
        return false;
      }
      return true;
    });
  }
  return quotes;
}
