// Where a run's answers come from. A consumer surface answers for the place a probe names (its
// country and, where the provider takes one, its city); an API platform gets the country as a
// hint at most, and Copilot takes no location at all. The run summary lists each location with
// the answers every platform gave for it, so a reader knows which place each rate speaks for.
// A platform that takes no location (Copilot) answers from nowhere in particular: its answers
// are listed under country and city null, whatever the run asked for.
// Pure: probe rows in, the list out (read.ts adds it to a single run's summary).

export interface LocationProbe {
  platform: string;
  status: string;
  country: string | null;
  city?: string | null;
}

export interface RunLocation {
  country: string | null;
  city: string | null;
  /** Succeeded probes (answers) per platform for this location, in the run's platform order. */
  platforms: { platform: string; answers: number }[];
}

/** The distinct (country, city) pairs of the run's answers, most answers first. */
export function summarizeLocations(
  probes: readonly LocationProbe[],
  support: (platform: string) => { supports_country: boolean; supports_city: boolean },
): RunLocation[] {
  const byKey = new Map<string, { country: string | null; city: string | null; counts: Map<string, number>; total: number }>();
  for (const p of probes) {
    if (p.status !== 'succeeded') continue;
    const takes = support(p.platform);
    const country = takes.supports_country ? (p.country ?? null) : null;
    const city = takes.supports_city ? (p.city ?? null) : null;
    const key = `${country ?? ''}\u0000${city ?? ''}`;
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { country, city, counts: new Map(), total: 0 }));
    entry.counts.set(p.platform, (entry.counts.get(p.platform) ?? 0) + 1);
    entry.total++;
  }
  return [...byKey.values()]
    .sort((a, b) => b.total - a.total)
    .map((e) => ({ country: e.country, city: e.city, platforms: [...e.counts].map(([platform, answers]) => ({ platform, answers })) }));
}
