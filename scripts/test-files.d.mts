// Types of scripts/test-files.mjs (plain JavaScript: npm test runs it before any loader).
export function testFiles(): string[];
export function durations(text: string): Map<string, number>;
export function order(files: string[], seconds: Map<string, number>): [string, number][];
