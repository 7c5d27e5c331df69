// A Slack incoming-webhook message for an event: Block Kit blocks (a header, a section saying
// what changed and by how much, a context line with a link to the console page) and a `text`
// fallback Slack shows in notifications. Limits from Slack's Block Kit reference
// (docs.slack.dev/reference/block-kit/blocks/…): a header's plain_text ≤ 150 characters, a
// section's text 1..3000 and at most 10 fields of ≤ 2000 each, a context at most 10 elements.
type Data = Record<string, any>;

const pct = (rate: unknown) => (typeof rate === 'number' ? `${(rate * 100).toFixed(1)}%` : 'n/a');
const points = (change: unknown) => (typeof change === 'number' ? `${change > 0 ? '+' : ''}${(change * 100).toFixed(1)} points` : 'n/a');
const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n - 1) + '…');
/** Slack mrkdwn: &, < and > are control characters and must be escaped in text. */
const esc = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function link(base: string, path: string, label: string): string {
  return `<${base.replace(/\/+$/, '')}${path}|${esc(label)}>`;
}

/** How the words are marked up: Slack mrkdwn here; mail (alert-mail.ts) passes its own. */
export interface Markup {
  esc: (s: unknown) => string;
  bold: (s: string) => string;
}

const MRKDWN: Markup = { esc, bold: (s) => `*${s}*` };

/** What an event says, in words: a title, a sentence with the numbers, facts, the console page. */
export function describeEvent(type: string, d: Data, m: Markup = MRKDWN): { title: string; body: string; fields: string[]; href: string | null } {
  const { esc, bold } = m;
  switch (type) {
    case 'run.completed': {
      const ci = String(d.run_id ?? '').startsWith('ci_');
      const rate = d.summary?.mention_rate;
      return {
        title: `Run ${d.status ?? 'finished'}: ${d.target_entity ?? d.url ?? d.run_id}`,
        body: ci
          ? `Content Intelligence run for ${esc(d.url)} ended ${bold(esc(d.status))}${d.overall_score != null ? `, score ${bold(esc(d.overall_score))} (${esc(d.overall_band)})` : ''}.`
          : `Visibility run for ${bold(esc(d.target_entity))} (${esc(d.url)}) ended ${bold(esc(d.status))}: mentioned in ${bold(pct(rate))} of answers${d.summary?.visibility_band ? ` (${esc(d.summary.visibility_band)})` : ''}.`,
        fields: ci ? [] : [`${bold('Probes')}\n${esc(d.probe_count)}`, `${bold('Succeeded')}\n${esc(d.probe_counts?.succeeded ?? d.summary?.completed_probe_count)}`],
        href: d.run_id ? (ci ? `/console/content/${d.run_id}` : `/console/runs/${d.run_id}`) : null,
      };
    }
    case 'tracked_test.changed': {
      const moved = (d.competitors_moved ?? []) as { name: string; change: number }[];
      return {
        title: `Mention rate ${d.direction === 'down' ? 'fell' : 'rose'}: ${d.name ?? d.test_id}`,
        body: `The mention rate went from ${bold(pct(d.previous?.mention_rate))} to ${bold(pct(d.latest?.mention_rate))} (${points(d.change)}), beyond the noise (95% test).`,
        fields: [
          `${bold('Latest interval')}\n${pct(d.interval?.low)} – ${pct(d.interval?.high)}`,
          `${bold('Competitors that moved')}\n${moved.length ? moved.slice(0, 5).map((c) => `${esc(c.name)} ${points(c.change)}`).join('\n') : 'none'}`,
        ],
        href: d.test_id ? `/console/tests/${d.test_id}` : null,
      };
    }
    case 'tracked_test.skipped':
      return {
        title: `Scheduled run skipped: ${d.name ?? d.test_id}`,
        body: `The run due at ${esc(d.slot)} was skipped: ${bold(esc(d.reason))}${d.message ? ` — ${esc(d.message)}` : ''}`,
        fields: [],
        href: d.test_id ? `/console/tests/${d.test_id}` : null,
      };
    case 'credits.low':
      return {
        title: 'Credits are running low',
        body: `The available balance is ${bold(esc(d.available_credits))} credits, below the alert threshold of ${bold(esc(d.threshold))}.`,
        fields: [],
        href: '/console/account',
      };
    case 'crawler.blocked':
      return {
        title: `${d.crawler ?? 'An AI crawler'} is refused on ${d.path ?? 'a page'}`,
        body: `${bold(esc(d.crawler))} (${esc(d.vendor)}, ${esc(d.role)}) was refused ${bold(esc(d.blocked_hits))} of ${esc(d.hits)} times on ${bold(esc(d.path))}, a page robots.txt allows it to fetch: a CDN or firewall rule keeps it out.`,
        fields: [`${bold('Site')}\n${esc(d.site_id)}`, `${bold('Logs read')}\n${esc(d.from)} – ${esc(d.to)}`],
        href: null,
      };
    default:
      return { title: type, body: `\`${esc(type)}\` happened.`, fields: [], href: null };
  }
}

/** The Block Kit message Slack receives for one event. */
export function slackMessage(type: string, data: Data, publicUrl: string) {
  const { title, body, fields, href } = describeEvent(type, data ?? {});
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(title, 150), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: cut(body, 3000) } },
  ];
  if (fields.length) blocks.push({ type: 'section', fields: fields.slice(0, 10).map((f) => ({ type: 'mrkdwn', text: cut(f, 2000) })) });
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: href ? `${link(publicUrl, href, 'Open in sightline')} · \`${esc(type)}\`` : `\`${esc(type)}\`` }],
  });
  // The fallback is mrkdwn too (Slack formats a message's top-level text unless told not to), so
  // a title's names and paths are escaped there: a crawler's path from a site's log, or a brand,
  // could otherwise say <!channel> or put a link of its own in the notification.
  return { text: cut(esc(title), 3000), blocks };
}
