// Whether a subscription list (an endpoint's events, a user's e-mail choice) covers an event type:
// "*" covers every type, including types added later.
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}
