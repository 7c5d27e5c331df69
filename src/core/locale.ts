// Language and country codes as a request gives them, checked against the languages and regions
// Node's ICU data names (Intl.DisplayNames with no fallback answers undefined for an unknown
// code): "klingon", "english" or a country "ZZ" would otherwise run and be charged as a market
// no assistant knows.
import { AppError } from './errors.ts';

const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Whether `tag` is a BCP 47 language tag whose language ICU knows (en, de, pt-BR, zh-Hans, yue). */
export function isLanguageTag(tag: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/.test(tag)) return false;
  let canonical: string;
  try {
    canonical = Intl.getCanonicalLocales(tag.replaceAll('_', '-'))[0]!;
  } catch {
    return false;
  }
  const primary = canonical.split('-')[0]!;
  return primary !== 'und' && LANGUAGES.of(primary) !== undefined;
}

/** Whether `code` is a two-letter country or region code ICU knows (US, DE, GB; any case). */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(code)) return false;
  const upper = code.toUpperCase();
  if (upper === 'ZZ') return false;
  try {
    return REGIONS.of(upper) !== undefined;
  } catch {
    return false;
  }
}

/** Throws a 400 invalid_request naming the parameter when the language tag is not one. */
export function checkLanguage(value: string, parameter = 'language'): string {
  if (!isLanguageTag(value)) {
    throw new AppError('invalid_request', `${parameter} must be a language code such as en, de or pt-BR; "${value}" is not one.`, { parameter });
  }
  return value;
}

/** Throws a 400 invalid_request naming the parameter when the country code is not one. */
export function checkCountry(value: string, parameter = 'country'): string {
  if (!isCountryCode(value)) {
    throw new AppError('invalid_request', `${parameter} must be a two-letter country code such as US, DE or GB; "${value}" is not one.`, { parameter });
  }
  return value;
}

/** Checks a request's optional `language` and `country` (absent or blank: not given). */
export function checkLocaleInput(input: { language?: string | null; country?: string | null }): void {
  const language = input.language?.trim();
  const country = input.country?.trim();
  if (language) checkLanguage(language);
  if (country) checkCountry(country);
}
