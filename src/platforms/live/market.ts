// The market instruction: how a probe's language and country reach a provider that has no
// parameter for them. A person in Germany asking ChatGPT gets German, locally relevant answers;
// the system message asks for the same, in plain words, without steering the content.

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Display names by kind and code: Intl.DisplayNames.of costs ~tens of µs and codes repeat. */
const names = new Map<string, string>();

function nameOf(kind: 'language' | 'region', code: string): string {
  const key = `${kind}:${code}`;
  const hit = names.get(key);
  if (hit !== undefined) return hit;
  let name: string;
  try {
    name = (kind === 'language' ? languageNames : regionNames).of(code) ?? code;
  } catch {
    name = code;
  }
  if (names.size < 1000) names.set(key, name); // bounded: codes come from requests
  return name;
}

/**
 * System instruction for language (always) and country (only when the API has no location
 * parameter, so the country is not given twice in two different ways).
 */
export function marketInstruction(language: string, country: string, opts: { includeCountry: boolean }): string {
  const lang = `${nameOf('language', language)} (${language})`;
  const parts = [`Answer in ${lang}.`];
  if (opts.includeCountry && country) {
    const region = `${nameOf('region', country.toUpperCase())} (${country.toUpperCase()})`;
    parts.push(`The user is located in ${region}; when it matters, give answers relevant to that market.`);
  }
  return parts.join(' ');
}
