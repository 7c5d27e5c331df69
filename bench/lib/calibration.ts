// A host's speed in one number, printed beside a bench's figures so that figures taken on
// different machines can be set side by side: the CPU time of a fixed pure-JS workload (an integer
// loop, JSON written and parsed, regular expressions over text), the kinds of work the service's
// hot paths do. The one thing to know: it is the best of several repetitions, in the calling
// process (after its first repetition has compiled the code), so it measures the CPU's speed
// rather than the load on the machine; a host twice as slow shows about twice the milliseconds.
// Ratios between hosts are rough (caches and memory speed differ by workload): compare a bench's
// own figures A/B on one host, and use this only to place figures from different hosts.

/** Keeps the workload's result alive, so the compiler cannot drop the work. */
let sink = 0;

const RECORDS = Array.from({ length: 2000 }, (_, i) => ({
  id: `p_${i.toString(36).padStart(6, '0')}`,
  prompt: `which crm do small teams pick, variant ${i}`,
  platform: ['openai', 'claude', 'gemini'][i % 3],
  mentioned: i % 4 === 0,
  position: i % 7,
  citations: [`https://www.example${i % 13}.com/crm/${i}`, `https://docs.vendor${i % 5}.io/pricing`],
}));
const TEXT = 'Acme CRM and Zoho lead the list; see https://www.example.com/crm for pricing. Teams of 10–50 pick HubSpot. '.repeat(400);

function workload(): number {
  let h = 2166136261;
  for (let i = 0; i < 4_000_000; i++) h = Math.imul(h ^ i, 16777619) >>> 0;
  for (let i = 0; i < 8; i++) h ^= (JSON.parse(JSON.stringify(RECORDS)) as unknown[]).length + i;
  for (let i = 0; i < 12; i++) {
    h ^= (TEXT.match(/\b[A-Z][a-z]+(?: [A-Z][A-Za-z]+)*/g) ?? []).length;
    h ^= TEXT.replace(/https?:\/\/[^\s;,]+/g, '<url>').length;
    h ^= TEXT.toLowerCase().split(/\s+/).length;
  }
  return h;
}

/** CPU milliseconds (process.cpuUsage, user + system) of the fixed workload: the best of `reps`. */
export function hostCalibrationMs(reps = 7): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < reps; r++) {
    const before = process.cpuUsage();
    sink ^= workload();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  if (sink === 0.5) console.log(sink); // never true: the sink is an integer
  return Math.round(best * 10) / 10;
}
