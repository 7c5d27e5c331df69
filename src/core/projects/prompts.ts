// A project's prompt library: prompts with topics (tags), added one by one, as a list, or in bulk
// from pasted lines or CSV (a `prompt` column and an optional `topics` column, topics separated by
// ";" or "|"). A prompt already in the library is not added twice (the import says how many).
import { parse } from 'csv-parse/sync';
import { AppError } from '../errors.ts';
import { newId, nowIso } from '../../lib/ids.ts';
import type { Executor } from '../../db/store.ts';

export interface PromptInput {
  prompt: string;
  topics?: string[];
}

export const MAX_PROMPT_CHARS = 500;
export const MAX_PROJECT_PROMPTS = 1000;
/** A prompt's topics, however they came (a list, a CSV cell, merged over imports): as the API's schema says. */
export const MAX_PROMPT_TOPICS = 20;
export const MAX_TOPIC_CHARS = 60;
/** Distinct topics in one library: each is a row of the dashboard's topics and of a shared report and its PDF. */
export const MAX_PROJECT_TOPICS = 200;

const cleanTopics = (topics: readonly string[] | undefined) => [...new Set((topics ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean))];

/**
 * Refuses a prompt whose topics (after merging) are more or longer than a list may give: a CSV
 * cell or the same prompt repeated across an import or across imports would otherwise add
 * topics without end, and every dashboard and shared report rolls each topic up.
 */
function checkTopics(prompt: string, topics: string[]): string[] {
  const long = topics.find((t) => t.length > MAX_TOPIC_CHARS);
  if (long !== undefined) throw new AppError('invalid_request', `A topic is at most ${MAX_TOPIC_CHARS} characters.`, { topic: long.slice(0, 80) });
  if (topics.length > MAX_PROMPT_TOPICS) throw new AppError('invalid_request', `A prompt has at most ${MAX_PROMPT_TOPICS} topics.`, { prompt: prompt.slice(0, 80) });
  return topics;
}

export async function listPrompts(db: Executor, projectId: string) {
  const rows = await db.selectFrom('project_prompts').select(['id', 'prompt', 'topics']).where('project_id', '=', projectId).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, prompt: r.prompt, topics: JSON.parse(r.topics) as string[] }));
}

/** A prompt as the library keeps it: trimmed, inner whitespace as one space. */
export const normalizePrompt = (raw: string) => raw.trim().replace(/\s+/g, ' ');

/** Rows per INSERT: 5 columns each, far below SQLite's and Postgres's bound-parameter limits. */
const INSERT_BATCH = 200;

/**
 * Adds prompts not yet in the library; the others only gain the topics given. Everything is
 * checked before anything is written: each prompt's length and topics, the library's distinct
 * topics, and the count (the library's prompts plus the new distinct ones) against MAX_PROJECT_PROMPTS, so an oversized paste is refused
 * without a single insert. New prompts are then inserted in batches.
 */
export async function addPrompts(db: Executor, projectId: string, prompts: readonly PromptInput[]) {
  const existing = new Map((await listPrompts(db, projectId)).map((p) => [p.prompt, p]));
  const fresh = new Map<string, string[]>();
  const changed = new Set<string>();
  let duplicates = 0;
  for (const raw of prompts) {
    const prompt = normalizePrompt(raw.prompt);
    if (!prompt) continue;
    if (prompt.length > MAX_PROMPT_CHARS) throw new AppError('invalid_request', `A prompt is at most ${MAX_PROMPT_CHARS} characters.`, { prompt: prompt.slice(0, 80) });
    const topics = checkTopics(prompt, cleanTopics(raw.topics));
    const known = existing.get(prompt);
    if (known) {
      duplicates++;
      const merged = checkTopics(prompt, cleanTopics([...known.topics, ...topics]));
      if (merged.length !== known.topics.length) {
        known.topics = merged;
        changed.add(prompt);
      }
      continue;
    }
    const pending = fresh.get(prompt);
    if (pending) {
      duplicates++;
      fresh.set(prompt, checkTopics(prompt, cleanTopics([...pending, ...topics])));
      continue;
    }
    fresh.set(prompt, topics);
    if (existing.size + fresh.size > MAX_PROJECT_PROMPTS) throw new AppError('invalid_request', `A project holds at most ${MAX_PROJECT_PROMPTS} prompts.`);
  }
  const distinct = new Set([...existing.values(), ...[...fresh.values()].map((topics) => ({ topics }))].flatMap((p) => p.topics));
  if (distinct.size > MAX_PROJECT_TOPICS) throw new AppError('invalid_request', `A project has at most ${MAX_PROJECT_TOPICS} topics (this import would make ${distinct.size}).`);
  for (const prompt of changed) {
    const known = existing.get(prompt)!;
    await db.updateTable('project_prompts').set({ topics: JSON.stringify(known.topics) }).where('id', '=', known.id).execute();
  }
  const createdAt = nowIso();
  const rows = [...fresh].map(([prompt, topics]) => ({ id: newId('pp'), project_id: projectId, prompt, topics: JSON.stringify(topics), created_at: createdAt }));
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await db.insertInto('project_prompts').values(rows.slice(i, i + INSERT_BATCH)).execute();
  return { added: rows.length, duplicates, prompt_count: existing.size + rows.length };
}

/** Prompts from pasted text: one per line, or CSV with a `prompt` column (and `topics`). */
export function parsePromptText(text: string, format: 'lines' | 'csv', topics: readonly string[] = []): PromptInput[] {
  if (format === 'lines') {
    return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((prompt) => ({ prompt, topics: [...topics] }));
  }
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: (h: string[]) => h.map((x) => x.trim().toLowerCase()), skip_empty_lines: true, relax_column_count: true, bom: true, trim: true });
  } catch (err) {
    throw new AppError('invalid_request', `The CSV could not be read: ${(err as Error).message}`);
  }
  if (rows.length && !('prompt' in rows[0])) throw new AppError('invalid_request', 'The CSV needs a header row with a "prompt" column (and optionally "topics").');
  return rows.map((r) => ({ prompt: r.prompt ?? '', topics: [...topics, ...(r.topics ?? '').split(/[;|]/)] }));
}

/** Removes one prompt from the library. */
export async function deletePrompt(db: Executor, projectId: string, promptId: string) {
  const res = await db.deleteFrom('project_prompts').where('project_id', '=', projectId).where('id', '=', promptId).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new AppError('not_found', `Prompt ${promptId} not found in project ${projectId}.`);
}
