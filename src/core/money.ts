// Credits are integer hundredths everywhere inside; "12.00" strings only at the edge.
export function formatCredits(hundredths: number): string {
  const sign = hundredths < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(hundredths));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "2.50" | "2" | 2.5 → 250. Rejects more than two decimals. */
export function parseCredits(value: string | number): number {
  const s = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new Error(`not a credit amount: ${JSON.stringify(value)}`);
  const hundredths = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  // Beyond 2^53 hundredths a number no longer holds every integer: the amount would change.
  if (!Number.isSafeInteger(hundredths)) throw new Error(`not a credit amount: ${JSON.stringify(value)} is too large`);
  return hundredths;
}
