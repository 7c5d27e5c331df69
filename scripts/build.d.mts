// Types of scripts/build.mjs (plain JavaScript, so it runs before anything else is installed).
export const STAMP: string;
export function rewriteSpecifiers(code: string, vendorPrefix?: string): string;
export function build(opts?: { quiet?: boolean }): Promise<void>;
