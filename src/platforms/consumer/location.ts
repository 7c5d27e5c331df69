// Country and city as the SERP providers take them: SerpApi wants a two-letter `gl` plus a free-text
// `location` ("Austin, Texas, United States"; the most popular match wins), DataForSEO a
// `location_name` from its own list ("United States", "London,England,United Kingdom"). Country
// names come from Intl (English), which matches the providers' lists for most countries.

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryName(country: string): string | null {
  const code = country?.trim().toUpperCase();
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  try {
    const name = regionNames.of(code);
    return name && name !== code ? name : null;
  } catch {
    return null;
  }
}

/** The primary language subtag ("de" of "de-AT"), which is what the providers' language codes are. */
export function languageCode(language: string): string {
  return (language || 'en').toLowerCase().split(/[-_]/)[0] || 'en';
}
