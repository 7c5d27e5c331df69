// The package's version, read from package.json once: the one version the API document
// (/openapi.json), the MCP server and the CLI (`--version`, `doctor`) report.
import { readFileSync } from 'node:fs';

export const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
