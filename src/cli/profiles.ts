// Saved connections of the user CLI (`sightline login`): a JSON file of named profiles, each an
// API URL and key, at $SIGHTLINE_CONFIG, else $XDG_CONFIG_HOME/sightline/config.json, else
// ~/.config/sightline/config.json. The file is 0600 in a 0700 directory, since it holds keys;
// it is replaced by a rename, so a reader never sees half a file. SIGHTLINE_API_URL and
// SIGHTLINE_API_KEY override what a profile holds.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEFAULT_API_URL = 'http://localhost:8080';

export interface Profile {
  api_url: string;
  api_key: string;
}

interface ConfigFile {
  profiles: Record<string, Profile>;
}

type Env = Record<string, string | undefined>;

export function configPath(env: Env): string {
  if (env.SIGHTLINE_CONFIG?.trim()) return env.SIGHTLINE_CONFIG.trim();
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'sightline', 'config.json');
}

/** The profile a command uses: --profile, else SIGHTLINE_PROFILE, else "default". */
export function profileName(flag: string | undefined, env: Env): string {
  return flag?.trim() || env.SIGHTLINE_PROFILE?.trim() || 'default';
}

function readConfig(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<ConfigFile>;
  return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
}

function writeConfig(path: string, config: ConfigFile): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600); // whatever the umask
  renameSync(tmp, path);
}

export function readProfile(env: Env, name: string): Profile | undefined {
  return readConfig(configPath(env)).profiles[name];
}

export function saveProfile(env: Env, name: string, profile: Profile): string {
  const path = configPath(env);
  const config = readConfig(path);
  config.profiles[name] = profile;
  writeConfig(path, config);
  return path;
}

/** Removes a profile; false when there was none of that name. */
export function removeProfile(env: Env, name: string): boolean {
  const path = configPath(env);
  const config = readConfig(path);
  if (!config.profiles[name]) return false;
  delete config.profiles[name];
  writeConfig(path, config);
  return true;
}

/** The URL and key a command uses: each from its environment variable, else from the profile. */
export function connection(env: Env, name: string): { apiUrl: string; apiKey: string | undefined; profile: Profile | undefined } {
  const profile = readProfile(env, name);
  return {
    apiUrl: env.SIGHTLINE_API_URL?.trim() || profile?.api_url || DEFAULT_API_URL,
    apiKey: env.SIGHTLINE_API_KEY?.trim() || profile?.api_key,
    profile,
  };
}
