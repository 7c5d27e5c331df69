// The first k items of a list in a comparator's order, exactly what a stable sort and slice(0, k)
// give, without sorting the whole list: a summary shows the top 20 of thousands of cited URLs
// and is built again on every read of a running run, and a sort of them all costs about 12
// comparisons per item (each a localeCompare on the ties) where this costs about one.
// The one thing to know: an item that compares equal to one already kept goes after it, as a
// stable sort would put it (the kept one came first in the list).

/** The first `k` of `items` in `cmp` order (stable: equal items keep their list order). */
export function topSorted<T>(items: Iterable<T>, k: number, cmp: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  if (k <= 0) return top;
  for (const item of items) {
    if (top.length === k && cmp(item, top[k - 1]!) >= 0) continue;
    // The first kept item that sorts strictly after `item` (binary search: equal ones stay before).
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(item, top[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}
