// Turns the bytes of a fetched body into text, choosing the character encoding the way a
// browser does (WHATWG "encoding sniffing"): a byte-order mark wins, then the charset of the
// Content-Type header, then for HTML a <meta charset>/http-equiv in the first 1024 bytes
// (html-encoding-sniffer implements that prescan exactly), then a default.
//
// The one thing to know: with nothing declared, HTML that is valid UTF-8 is read as UTF-8 and
// only otherwise as windows-1252 (the spec's default for most locales). The spec allows this
// detection step, and today an undeclared page is far more often UTF-8 than Latin-1; pure
// ASCII reads the same either way.
//
// Decoding uses the TextDecoder of @exodus/bytes, not Node's: Node 20's decodes windows-1252
// as ISO-8859-1 (bytes 0x80-0x9F become C1 controls instead of “ ” – € …), and windows-1252 is
// the encoding of every page labelled latin1/iso-8859-1. The library implements the WHATWG
// Encoding standard exactly, multi-byte encodings (Shift_JIS, GB18030, EUC-KR, Big5) included.
import { TextDecoder, getBOMEncoding, normalizeEncoding } from '@exodus/bytes/encoding.js';
import sniffHTMLEncoding from 'html-encoding-sniffer';

/** Content-Type split into its essence (lowercased "type/subtype") and charset parameter. */
export function parseContentType(header: string | null | undefined): { essence: string | null; charset: string | null } {
  if (!header) return { essence: null, charset: null };
  const [type = '', ...params] = header.split(';');
  const essence = type.trim().toLowerCase() || null;
  let charset: string | null = null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq === -1) continue;
    if (p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').trim() || null;
    break;
  }
  return { essence, charset };
}


function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

const UNDECLARED = '\u0000undeclared';

/** Which encoding to decode `bytes` with. `html` selects the HTML rules (meta prescan). */
export function sniffEncoding(bytes: Uint8Array, headerCharset: string | null, html: boolean): string {
  let name: string | null;
  if (html) {
    // The sniffer resolves labels with the WHATWG table, so "latin1" → windows-1252 and an
    // unknown header label falls through to the meta prescan, as the spec says.
    name = sniffHTMLEncoding(bytes, {
      transportLayerEncodingLabel: headerCharset ?? undefined,
      defaultEncoding: UNDECLARED,
    });
    if (name === UNDECLARED) name = isValidUtf8(bytes) ? 'utf-8' : 'windows-1252';
  } else {
    name = getBOMEncoding(bytes) ?? (headerCharset ? normalizeEncoding(headerCharset) : null) ?? 'utf-8';
  }
  return name;
}

/**
 * Decodes `bytes`. When the body was cut at the size cap (`truncated`), an incomplete character
 * at the very end is dropped rather than shown as U+FFFD.
 */
export function decodeBody(
  bytes: Uint8Array,
  headerCharset: string | null,
  html: boolean,
  truncated = false,
): { text: string; charset: string } {
  const charset = sniffEncoding(bytes, headerCharset, html);
  // "replacement" (labels like iso-2022-kr, kept out because they allow script injection) has
  // no decoder: per the Encoding standard the whole input decodes to one U+FFFD.
  if (charset === 'replacement') return { text: bytes.length ? '\uFFFD' : '', charset };
  // ignoreBOM false (the default): a BOM matching the encoding is stripped, as browsers do.
  const text = new TextDecoder(charset).decode(bytes, { stream: truncated });
  return { text, charset };
}
