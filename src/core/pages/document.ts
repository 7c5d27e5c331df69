// The document model the extractor produces from one HTML page. Serialization renders it as the
// content view; Content Intelligence reads its metadata and blocks for signals. Everything here
// is plain data (JSON-serializable) so it can be cached and stored with a run.
import type { PageFacts } from './extract/metadata.ts';
import type { PageLayout } from './extract/layout.ts';

export interface Heading {
  level: number; // 1..6
  text: string;
}

/** One block of main content, in document order. */
export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'table'; rows: string[][]; header: boolean }
  | { kind: 'code'; text: string; language?: string | null }
  | { kind: 'quote'; text: string };

export interface PageLink {
  href: string; // absolute URL
  text: string;
  rel?: string | null;
}

export interface PageDocument {
  url: string; // the (final) URL the HTML came from
  title: string | null;
  description: string | null;
  language: string | null; // from <html lang> or meta, e.g. "en", "de-DE"
  canonicalUrl: string | null;
  metaRobots: string | null;
  openGraph: Record<string, string>; // og:* properties without the "og:" prefix
  jsonLd: unknown[]; // parsed JSON-LD objects (invalid blocks skipped, counted in jsonLdErrors)
  jsonLdErrors: number;
  /** Dates found in metadata: published/modified from JSON-LD, meta tags, <time>. ISO strings. */
  dates: { published: string | null; modified: string | null; found: string[] };
  headings: Heading[]; // headings of the main content, document order
  blocks: Block[]; // the main content, document order
  /** Links found in the main content and in the whole page (absolute URLs). */
  links: { main: PageLink[]; all: PageLink[] };
  /** Plain main-content text (blocks joined by blank lines, no Markdown markers). */
  bodyText: string;
  wordCount: number;
  /** Whole-page facts beyond the main content (every H1, robots meta by agent, nosnippet
   * regions, JavaScript dependence); absent on documents stored before they were read. */
  page?: PageFacts & {
    /** Entries of a reference or sources list after the main content (kept out of the main text,
     * shown at the end of the content view); `heading` is the list's own title ("Sources"). */
    references?: { text: string; href: string | null; heading?: string }[];
    /** Template filler ("Lorem ipsum…") kept out of the main text. */
    placeholders?: string[];
    /** Whole-page structure that marks the page's kind (buy buttons, pager, docs sidebar, posts, cards). */
    layout?: PageLayout;
  };
}
