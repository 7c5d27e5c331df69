// The text of a PDF, read by pdftotext (poppler-utils): one line per paragraph, so a label wrapped
// over two lines still reads as one. Null without poppler-utils, which fails the test on CI.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasPoppler = spawnSync('pdftoppm', ['-v']).error === undefined;

export function pdfText(pdf: Buffer): string | null {
  if (!hasPoppler) {
    if (process.env.CI === 'true') assert.fail('pdftotext is required on CI (apt-get install poppler-utils)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'sightline-pdf-'));
  try {
    writeFileSync(join(dir, 'report.pdf'), pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', join(dir, 'report.pdf'), '-']).toString('utf8').replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
