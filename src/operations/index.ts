// The catalog of operations, one file per operation, grouped by feature area. Every surface is
// an adapter of it: HTTP routes (src/http/), MCP tools (src/mcp/tools.ts), the OpenAPI document
// and through it the typed client, and the CLI's command table (scripts/cli-table.ts).
import getUsage from './usage/get-usage.ts';
import listActivity from './activity/list-activity.ts';
import listModels from './visibility/list-models.ts';
import createRun from './visibility/create-run.ts';
import estimateRun from './visibility/estimate-run.ts';
import getRun from './visibility/get-run.ts';
import getProbe from './visibility/get-probe.ts';
import listRuns from './visibility/list-runs.ts';
import cancelRun from './visibility/cancel-run.ts';
import listTests from './tests/list-tests.ts';
import getTest from './tests/get-test.ts';
import createTest from './tests/create-test.ts';
import estimateTest from './tests/estimate-test.ts';
import updateTest from './tests/update-test.ts';
import deleteTest from './tests/delete-test.ts';
import runTest from './tests/run-test.ts';
import testHistory from './tests/test-history.ts';
import exportRun from './visibility/export-run.ts';
import reportsByUrl from './reports/by-url.ts';
import serializePage from './pages/serialize.ts';
import suggestPrompts from './visibility/suggest-prompts.ts';
import discoverTrends from './content/discover-trends.ts';
import scoreContent from './content/score-content.ts';
import createCiRun from './content/create-run.ts';
import listCiRuns from './content/list-runs.ts';
import getCiRun from './content/get-run.ts';
import createWebhook from './webhooks/create-webhook.ts';
import listWebhooks from './webhooks/list-webhooks.ts';
import getWebhook from './webhooks/get-webhook.ts';
import updateWebhook from './webhooks/update-webhook.ts';
import deleteWebhook from './webhooks/delete-webhook.ts';
import listDeliveries from './webhooks/list-deliveries.ts';
import retryDelivery from './webhooks/retry-delivery.ts';
import getNotificationSettings from './webhooks/get-settings.ts';
import updateNotificationSettings from './webhooks/update-settings.ts';
import testSamplePlan from './tests/sample-plan.ts';
import createProject from './projects/create-project.ts';
import listProjects from './projects/list-projects.ts';
import getProject from './projects/get-project.ts';
import updateProject from './projects/update-project.ts';
import deleteProject from './projects/delete-project.ts';
import importProjectPrompts from './projects/import-prompts.ts';
import deleteProjectPrompt from './projects/delete-prompt.ts';
import runProject from './projects/run-project.ts';
import projectDashboard from './projects/project-dashboard.ts';
import projectSamplePlan from './projects/project-sample-plan.ts';
import estimateProject from './projects/estimate-project.ts';
import createShare from './reports/create-share.ts';
import listShares from './reports/list-shares.ts';
import revokeShare from './reports/revoke-share.ts';
import createSite from './sites/create-site.ts';
import listSites from './sites/list-sites.ts';
import getSite from './sites/get-site.ts';
import deleteSite from './sites/delete-site.ts';
import uploadLogs from './sites/upload-logs.ts';
import siteCrawlers from './sites/site-crawlers.ts';
import siteReferrals from './sites/site-referrals.ts';

/** The one catalog of operations: HTTP routes, MCP tools, the OpenAPI document and the CLI derive from it. */
export const OPERATIONS = [getUsage, listActivity, listModels, estimateRun, createRun, listRuns, getRun, getProbe, cancelRun, exportRun, listTests, getTest, estimateTest, createTest, updateTest,
  deleteTest, runTest, testHistory, reportsByUrl, serializePage,
  suggestPrompts, discoverTrends, scoreContent, createCiRun, listCiRuns, getCiRun,
  createWebhook, listWebhooks, getWebhook, updateWebhook, deleteWebhook, listDeliveries, retryDelivery, getNotificationSettings, updateNotificationSettings,
  testSamplePlan, estimateProject, createProject, listProjects, getProject, updateProject, deleteProject, importProjectPrompts, deleteProjectPrompt, runProject,
  projectDashboard, projectSamplePlan, createShare, listShares, revokeShare,

  createSite, listSites, getSite, deleteSite, uploadLogs, siteCrawlers, siteReferrals];
