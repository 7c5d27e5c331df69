// A map over a read-only base map, for a fold that branches: a run's summary folds its finished
// prefix of probes once and keeps it, and each read continues from there over the other probes
// on a layer, so the kept fold is never changed and the read costs what it changes, not a copy.
// The one thing to know: iteration is in the order a single map would have, had the base's
// entries been set first and this layer's after: base keys in base order (with this layer's
// value where it has one), then keys only this layer has, in their order. An entry to be changed
// in place must be taken with own(), which copies the base's value on first use.

const EMPTY: ReadonlyMap<unknown, unknown> = new Map();

export class Layered<K, V> {
  private readonly top = new Map<K, V>();

  constructor(
    private readonly base: ReadonlyMap<K, V> = EMPTY as ReadonlyMap<K, V>,
    private readonly copy: (v: V) => V = (v) => v,
  ) {}

  /** The value (read only: change it through own()). */
  get(key: K): V | undefined {
    return this.top.has(key) ? this.top.get(key) : this.base.get(key);
  }

  /** The value to change in place: this layer's own, copied from the base's on first use. */
  own(key: K): V | undefined {
    if (this.top.has(key)) return this.top.get(key);
    if (!this.base.has(key)) return undefined;
    const v = this.copy(this.base.get(key)!);
    this.top.set(key, v);
    return v;
  }

  set(key: K, value: V): void {
    this.top.set(key, value);
  }

  /** The entries, in order (an array: a poll reads thousands, and a generator allocates per step). */
  entries(): [K, V][] {
    const out: [K, V][] = [];
    const { base, top } = this;
    base.forEach((v, k) => out.push([k, top.has(k) ? top.get(k)! : v]));
    top.forEach((v, k) => {
      if (!base.has(k)) out.push([k, v]);
    });
    return out;
  }

  /** The values, in the order of entries(). */
  values(): V[] {
    const out: V[] = [];
    const { base, top } = this;
    if (top.size === 0) base.forEach((v) => out.push(v));
    else if (base.size === 0) top.forEach((v) => out.push(v));
    else {
      base.forEach((v, k) => out.push(top.has(k) ? top.get(k)! : v));
      top.forEach((v, k) => {
        if (!base.has(k)) out.push(v);
      });
    }
    return out;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries()[Symbol.iterator]();
  }

  /**
   * A layer over this one's entries, for a branch of the fold: it must be the base layer (no
   * base of its own), and not be changed while the branch is read.
   */
  branch(copy: (v: V) => V = this.copy): Layered<K, V> {
    if (this.base !== EMPTY) throw new Error('Layered.branch: only the base layer branches');
    return new Layered(this.top, copy);
  }
}
