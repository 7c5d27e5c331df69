// Page content serialization (POST /v1/pages/content/serialize): load a page
// through the shared page loader, answer one slice of its content view, and bill 1 credit.
//
// The one thing to know: the credit is reserved before anything is fetched and settled only when
// a non-empty slice was produced. Pages that turn out unsupported (PDF...) or answer an HTTP error,
// and offsets at or past the end of the view, are a 200 with `billable: false` and nothing charged; refused targets (fetch_blocked), network
// failures and timeouts release the reservation and fail. Every slice request is billed on its own
// (the hosted product charges per request), although the page loader's cache means paging
// through one page fetches it only once.
import { ACTION_PRICES, runPaidAction, type ActionContext } from '../billing/actions.ts';
import { AppError, FieldError } from '../errors.ts';
import { formatCredits } from '../money.ts';
import type { Store } from '../../db/store.ts';
import type { Heading, PageDocument } from './document.ts';
import { FetchError, fetchErrorToAppError } from './fetch/errors.ts';
import { normalizePageUrl, type LoadedPage, type PageLoader } from './pipeline.ts';

export const SERIALIZE_ACTION = 'pages.content.serialize';
export const EXTRACTION_MODES = ['ssr', 'csr', 'full'] as const;
export const MAX_CHARS_LIMIT = 25_000;
export const DEFAULT_MAX_CHARS = 12_000;
/** Longer URLs are refused as invalid_url (browsers and CDNs give up well before this). */
const MAX_URL_LENGTH = 8_192;

export interface SerializeRequest {
  url: string;
  /** `ssr` (default), `csr` or `full`: all accepted, all served by static extraction. */
  extraction_mode?: string | null;
  /** 1..25000, default 12000. */
  max_chars?: number | null;
  /** ≥ 0, default 0. */
  offset?: number | null;
}

export interface Serialization {
  url: string;
  http_status: number | null;
  content_view: string;
  content_view_offset: number;
  content_view_chars: number;
  content_view_truncated: boolean;
  next_offset: number | null;
  billing: { billable: boolean; estimated_credits: string };
  payload_limits: { raw_extraction_returned: false; max_chars: number };
  // Additive fields (docs/api.md).
  final_url: string;
  title: string | null;
  description: string | null;
  language: string | null;
  content_type: string | null;
  total_chars: number;
  headings: Heading[];
  word_count: number;
}

export interface SerializeDeps {
  store: Store;
  pages: PageLoader;
}

export interface ContentSlice {
  text: string;
  offset: number;
  chars: number;
  truncated: boolean;
  nextOffset: number | null;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * One slice of `view`, measured in UTF-16 code units (JavaScript string length) so offsets
 * round-trip through any JSON client. A slice never ends between the two halves of a surrogate
 * pair: it ends one unit early instead, or, when max_chars is 1 and the slice starts on an
 * astral character, it carries that whole character (2 units), so paging always moves forward.
 * An offset inside a pair starts the slice at the pair. Following nextOffset from 0 and
 * concatenating the slices gives exactly `view`.
 */
export function sliceContentView(view: string, offset: number, maxChars: number): ContentSlice {
  const total = view.length;
  if (offset >= total) return { text: '', offset, chars: 0, truncated: false, nextOffset: null };
  let start = offset;
  if (start > 0 && isLow(view.charCodeAt(start)) && isHigh(view.charCodeAt(start - 1))) start--;
  let end = Math.min(total, start + maxChars);
  if (end < total && isHigh(view.charCodeAt(end - 1)) && isLow(view.charCodeAt(end))) {
    end = end - 1 > start ? end - 1 : end + 1;
  }
  const text = view.slice(start, end);
  const truncated = end < total;
  return { text, offset: start, chars: text.length, truncated, nextOffset: truncated ? end : null };
}

interface ValidRequest {
  url: string;
  maxChars: number;
  offset: number;
}

/** Everything that refuses the request before a credit is reserved. */
function validate(req: SerializeRequest): ValidRequest {
  const maxChars = req.max_chars ?? DEFAULT_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1 || maxChars > MAX_CHARS_LIMIT) {
    throw new FieldError(['body', 'max_chars'], `max_chars must be an integer from 1 to ${MAX_CHARS_LIMIT}.`);
  }
  const offset = req.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new FieldError(['body', 'offset'], 'offset must be an integer ≥ 0.');
  }
  const mode = (req.extraction_mode ?? 'ssr').trim().toLowerCase();
  if (!(EXTRACTION_MODES as readonly string[]).includes(mode)) {
    throw new AppError('unsupported_extraction_mode', undefined, { allowed: [...EXTRACTION_MODES] });
  }
  if (typeof req.url !== 'string' || req.url.length > MAX_URL_LENGTH) throw new AppError('invalid_url');
  let url: string;
  try {
    url = normalizePageUrl(req.url.trim());
  } catch {
    throw new AppError('invalid_url');
  }
  const parsed = new URL(url);
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    throw new AppError('invalid_url', 'Only http and https URLs can be serialized.');
  }
  if (parsed.username || parsed.password) throw new AppError('invalid_url', 'URLs with credentials are not fetched.');
  return { url, maxChars, offset };
}

/** The view's outline: the main text's headings, then the title of each sources list the view ends with. */
function viewHeadings(doc: PageDocument): Heading[] {
  const headings = doc.headings.map((h) => ({ level: h.level, text: h.text }));
  let last: string | undefined;
  for (const r of doc.page?.references ?? []) {
    const text = r.heading ?? 'Sources';
    if (text !== last) headings.push({ level: 2, text });
    last = text;
  }
  return headings;
}

function serialization(
  req: ValidRequest,
  billable: boolean,
  page: { status: number | null; finalUrl: string; contentType: string | null },
  loaded: LoadedPage | null,
): Serialization {
  const view = loaded?.contentView ?? '';
  const slice = sliceContentView(view, req.offset, req.maxChars);
  const doc = loaded?.document;
  return {
    url: req.url,
    http_status: page.status,
    content_view: slice.text,
    content_view_offset: slice.offset,
    content_view_chars: slice.chars,
    content_view_truncated: slice.truncated,
    next_offset: slice.nextOffset,
    billing: { billable, estimated_credits: formatCredits(ACTION_PRICES[SERIALIZE_ACTION]) },
    payload_limits: { raw_extraction_returned: false, max_chars: req.maxChars },
    final_url: page.finalUrl,
    title: doc?.title ?? null,
    description: doc?.description ?? null,
    language: doc?.language ?? null,
    content_type: page.contentType,
    total_chars: view.length,
    headings: doc ? viewHeadings(doc) : [],
    word_count: doc?.wordCount ?? 0,
  };
}

/**
 * Serializes one page slice for the caller in `ctx`, charging 1 credit when the slice holds
 * content. Throws AppError/FieldError for refused requests (nothing reserved), 402 when the
 * balance is short (nothing fetched), fetch_blocked / invalid_url / extraction_failed when the
 * fetch fails (reservation released).
 */
export async function serializePage(
  deps: SerializeDeps,
  ctx: ActionContext,
  req: SerializeRequest,
): Promise<{ serialization: Serialization }> {
  const valid = validate(req);
  const { result } = await runPaidAction(deps.store, ctx, SERIALIZE_ACTION, ACTION_PRICES[SERIALIZE_ACTION], async () => {
    let loaded: LoadedPage;
    try {
      loaded = await deps.pages.load(valid.url, { accountId: ctx.accountId });
    } catch (err) {
      if (!(err instanceof FetchError)) throw err;
      if (err.code === 'unsupported_content' || err.code === 'http_error') {
        // The page exists but has nothing to serialize: answer, and charge nothing.
        const page = { status: err.status, finalUrl: err.url ?? valid.url, contentType: err.contentType };
        return { billable: false, result: serialization(valid, false, page, null) };
      }
      throw fetchErrorToAppError(err);
    }
    const { status, finalUrl, contentType } = loaded.fetched;
    // An offset at or past the end (or a page whose view is empty) returns no content: a 200 with
    // an empty slice, `total_chars` to show the valid range, and nothing charged.
    const billable = valid.offset < loaded.contentView.length;
    return { billable, result: serialization(valid, billable, { status, finalUrl, contentType }, loaded) };
  });
  return { serialization: result };
}
