// Where a run's answers come from. A consumer surface answers for the place a probe names (its
// country and, where the provider takes one, its city); an API platform gets the country as a
// hint at most, and Copilot takes no location at all. The run summary lists each location with
// the answers every platform gave for it, so a reader knows which place each rate speaks for.
// A platform that takes no location (Copilot) answers from nowhere in particular: its answers
// are listed under country and city null, whatever the run asked for.
// Pure: probe rows in, the list out (read.ts adds it to a single run's summary).
import { Layered } from '../../lib/layered.ts';

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

type Support = (platform: string) => { supports_country: boolean; supports_city: boolean };

interface LocationTally {
  country: string | null;
  city: string | null;
  counts: Map<string, number>;
  total: number;
}

const cloneTally = (t: LocationTally): LocationTally => ({ ...t, counts: new Map(t.counts) });

/**
 * The locations of the probes added so far, as a fold that branches (see SummaryFold): a run's
 * finished prefix is folded once and each read goes on over the other probes on a branch. The
 * order of first answers is kept, so ties in the sort fall as they do in one fold of every probe.
 */
export class LocationFold {
  private readonly byKey: Layered<string, LocationTally>;

  constructor(
    private readonly support: Support,
    from?: LocationFold,
  ) {
    this.byKey = from ? from.byKey.branch() : new Layered(undefined, cloneTally);
  }

  /** A fold that goes on from this one's state; adding to it leaves this one unchanged. */
  branch(): LocationFold {
    return new LocationFold(this.support, this);
  }

  add(p: LocationProbe): void {
    if (p.status !== 'succeeded') return;
    const takes = this.support(p.platform);
    const country = takes.supports_country ? (p.country ?? null) : null;
    const city = takes.supports_city ? (p.city ?? null) : null;
    const key = `${country ?? ''}\u0000${city ?? ''}`;
    const entry = this.byKey.own(key) ?? { country, city, counts: new Map(), total: 0 };
    entry.counts.set(p.platform, (entry.counts.get(p.platform) ?? 0) + 1);
    entry.total++;
    this.byKey.set(key, entry);
  }

  /** The distinct (country, city) pairs of the answers, most answers first. */
  result(): RunLocation[] {
    return this.byKey
      .values()
      .sort((a, b) => b.total - a.total)
      .map((e) => ({ country: e.country, city: e.city, platforms: [...e.counts].map(([platform, answers]) => ({ platform, answers })) }));
  }
}

/** The distinct (country, city) pairs of the run's answers, most answers first. */
export function summarizeLocations(probes: readonly LocationProbe[], support: Support): RunLocation[] {
  const fold = new LocationFold(support);
  for (const p of probes) fold.add(p);
  return fold.result();
}
