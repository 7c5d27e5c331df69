// Whether a subscription list (an endpoint's events, a user's e-mail choice) covers an event type:
// "*" covers every type, including types added later.
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * Whether an endpoint limited to some projects (null: not limited) takes an event about a project
 * (null: an account event, such as credits.low or crawler.blocked). A limited endpoint takes only
 * events of its projects: an agency's channel for one client never hears of another client, nor
 * of the account's credits.
 */
export function coversProject(projectIds: readonly string[] | null, projectId: string | null): boolean {
  return projectIds === null || (projectId !== null && projectIds.includes(projectId));
}

/** An endpoint row's project list (null: every project). */
export const endpointProjects = (e: { project_ids: string | null }): string[] | null => (e.project_ids === null ? null : (JSON.parse(e.project_ids) as string[]));
