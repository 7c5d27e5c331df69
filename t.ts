import { startTestServer } from './test/helpers/harness.ts';
const s = await startTestServer({});
const { key } = await s.account({ credits: 100 });
const res = await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.com', target_entity: 'Acme', competitors: ['Globex', 'Initech'], prompts: ['best crm for small teams', 'best crm [[sandbox:mention]]'], platforms: ['openai', 'claude'] } });
const id = res.json().run_id;
for (let i = 0; i < 50; i++) { const r = (await s.request('GET', `/v1/visibility/runs/${id}?include_results=true`, { key })).json(); if (r.status !== 'queued' && r.status !== 'running') { console.log(JSON.stringify(r.summary, null, 1)); console.log(JSON.stringify(r.probes[1], null, 1).slice(0, 3000)); break; } await new Promise(r => setTimeout(r, 100)); }
await s.close();
