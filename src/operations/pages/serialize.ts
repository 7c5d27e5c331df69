// POST /v1/pages/content/serialize: one slice of a page's content view,
// 1 credit per successful request. The schema only checks types and declared bounds (422);
// extraction_mode and the URL are checked by the core (400), so that an unknown mode gives
// unsupported_extraction_mode rather than a schema error.
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { DEFAULT_MAX_CHARS, MAX_CHARS_LIMIT, SERIALIZE_ACTION, serializePage } from '../../core/pages/serialize.ts';
import { defineRoute } from '../define.ts';

const Body = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Page URL (http or https); an invalid URL gives 400 invalid_url'),
  extraction_mode: z
    .string()
    .max(INPUT_LIMITS.keyword)
    .nullish()
    .describe('ssr (default), csr or full: accepted for compatibility, always static SSR extraction; anything else gives 400'),
  max_chars: z.number().int().min(1).max(MAX_CHARS_LIMIT).nullish().describe(`Slice length, 1..${MAX_CHARS_LIMIT}, default ${DEFAULT_MAX_CHARS}`),
  offset: z.number().int().min(0).nullish().describe('Offset into the content view; send the previous next_offset to read on. At or past total_chars the slice is empty and free (billable false)'),
});

const Response = z
  .object({
    serialization: z.object({
      url: z.string(),
      http_status: z.number().int().nullable(),
      content_view: z.string().describe('Markdown-flavoured normalized text: # Title, description, headings and body copy, then the article\'s sources list as links'),
      content_view_offset: z.number().int(),
      content_view_chars: z.number().int().describe('UTF-16 code units in this slice'),
      content_view_truncated: z.boolean(),
      next_offset: z.number().int().nullable(),
      billing: z.object({ billable: z.boolean(), estimated_credits: z.string() }),
      payload_limits: z.object({ raw_extraction_returned: z.boolean(), max_chars: z.number().int() }),
      final_url: z.string(),
      title: z.string().nullable(),
      description: z.string().nullable(),
      language: z.string().nullable(),
      content_type: z.string().nullable(),
      total_chars: z.number().int(),
      headings: z.array(z.object({ level: z.number().int(), text: z.string() })),
      word_count: z.number().int(),
    }),
  })
  .describe('One slice of the page content view');

export default defineRoute({
  method: 'POST',
  url: '/v1/pages/content/serialize',
  summary: 'Serialize page content into a normalized, pageable content view (1 credit per successful request)',
  tags: ['pages'],
  action: SERIALIZE_ACTION,
  scope: 'pages:content:serialize',
  body: Body,
  response: Response,
  errors: [400, 402, 413, 422, 500, 503],
  run: (a, ctx, core) => serializePage({ store: core.store, pages: core.pages }, ctx, a),
  cli: { command: 'page serialize', description: "a page's main content as normalized text, a slice at a time (1 credit)", args: ['url'] },
  tool: {
    name: 'serialize_page',
    title: 'Read a web page as text', openWorld: true,
    description:
      'Fetch a public web page and return its main content as normalized Markdown-like text, in slices (offset/max_chars). 1 credit.',
  },
});
