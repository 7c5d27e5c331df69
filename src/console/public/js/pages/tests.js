// Tracked tests: the saved tests that group runs of one kind for one URL.
import { html, PageHead, Table, ErrorNote, Empty, Loading, useData, ago } from '../ui.js';
import { get } from '../api.js';

export function TestsPage() {
  const tests = useData(() => get('/v1/tests?limit=50'));
  return html`<${PageHead} title="Tracked tests" sub="Every run belongs to a test: the same page and brand measured again over time." />
    <${ErrorNote} error=${tests.error} />
    ${!tests.data
      ? html`<${Loading} />`
      : tests.data.tests.length === 0
        ? html`<div class="card"><${Empty} title="No tests yet"><p>A test appears with the first run for a page.</p><a class="button" href="/console/runs/new">New visibility run</a></${Empty}></div>`
        : html`<div class="card"><${Table} caption="Tracked tests" captionHidden rowKey=${(t) => t.id} rows=${tests.data.tests} columns=${[
            { label: 'Test', cell: (t) => html`<a href=${'/console/tests/' + t.id}><strong>${t.name}</strong></a><div class="small muted">${t.url}</div>`, wide: true },
            { label: 'Kind', cell: (t) => (t.test_type === 'ai_citations' ? 'Visibility' : 'Content') },
            { label: 'Runs', cell: (t) => t.run_count, num: true },
            { label: 'Last run', cell: (t) => ago(t.last_run_at) },
          ]} /></div>`}`;
}

export function TestPage({ id }) {
  const test = useData(() => get(`/v1/tests/${id}`), [id]);
  if (test.error) return html`<${PageHead} title="Tracked test" /><${ErrorNote} error=${test.error} />`;
  if (!test.data) return html`<${PageHead} title="Tracked test" /><${Loading} />`;
  const t = test.data;
  return html`<${PageHead} title=${t.name} sub=${t.url} />
    <div class="card"><${Table} caption="Runs of this test" rowKey=${(r) => r.run_id} rows=${t.runs || []} columns=${[
      { label: 'Run', cell: (r) => html`<a href=${(r.run_id.startsWith('ci_') ? '/console/content/' : '/console/runs/') + r.run_id}>${r.run_id}</a>` },
      { label: 'Status', cell: (r) => r.status },
      { label: 'Created', cell: (r) => ago(r.created_at) },
    ]} /></div>`;
}

export const TestEditPage = TestsPage;
