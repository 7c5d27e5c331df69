// The AI SDK ('ai' and the providers' @ai-sdk packages), imported by a live driver's first call
// rather than at start: with @opentelemetry/api they are some 90 modules that cost every process
// building the server about 0.2 s of CPU (`serve`, each test file), though only a process that
// asks a provider needs them. The SDK's errors exist only once it is loaded (errors.ts).
import type * as Ai from 'ai';

let ai: typeof Ai | undefined;

/** The 'ai' package, imported once. */
export async function loadAiSdk(): Promise<typeof Ai> {
  ai ??= await import('ai');
  return ai;
}

/** The 'ai' package if a call already loaded it; undefined before (no SDK error can exist yet). */
export function loadedAiSdk(): typeof Ai | undefined {
  return ai;
}

/** A live driver's `generateText` and provider, made on its first call: `provider` imports the provider package and makes one. */
export function aiOnFirstCall<P>(provider: () => Promise<P>): () => Promise<{ generateText: typeof Ai.generateText; provider: P }> {
  return onFirstCall(async () => {
    const [made, ai] = await Promise.all([provider(), loadAiSdk()]);
    return { generateText: ai.generateText, provider: made };
  });
}

/** A driver's SDK objects, made by `make` on the first call and kept; a failed import is tried again next call. */
export function onFirstCall<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((err: unknown) => {
      made = undefined;
      throw err;
    }));
}
