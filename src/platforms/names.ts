// What each platform, and each AI assistant that sends visitors to a site, is called where people
// read it: the console (served to the browser as /console/assets/js/names.js, made from this
// module at start), the shared report page and its PDF. The one table of display names.
import type { PlatformName } from './types.ts';

export const PLATFORM_NAMES: Record<PlatformName, string> = {
  openai: 'ChatGPT',
  perplexity: 'Perplexity',
  gemini: 'Gemini',
  grok: 'Grok',
  claude: 'Claude',
  deepseek: 'DeepSeek',
  google_ai_overview: 'Google AI Overviews',
  google_ai_mode: 'Google AI Mode',
  copilot: 'Copilot',
  chatgpt_app: 'ChatGPT app',
};

/** The assistants a site's referrals name (core/sites' sources): a platform's name where it is one. */
export const ASSISTANT_NAMES: Record<string, string> = {
  chatgpt: PLATFORM_NAMES.openai,
  perplexity: PLATFORM_NAMES.perplexity,
  gemini: PLATFORM_NAMES.gemini,
  copilot: PLATFORM_NAMES.copilot,
  claude: PLATFORM_NAMES.claude,
  deepseek: PLATFORM_NAMES.deepseek,
  grok: PLATFORM_NAMES.grok,
  meta_ai: 'Meta AI',
  mistral: 'Mistral',
};

/** A platform id in words ("openai" → "ChatGPT"); an id not listed stays as it is. */
export const platformName = (id: string): string => (PLATFORM_NAMES as Record<string, string>)[id] ?? id;

/** The console's module of these tables: plain JavaScript, no import. */
export const namesModule = () =>
  `// Made by the server from src/platforms/names.ts: the one table of display names.\nexport const PLATFORM_NAMES = ${JSON.stringify(PLATFORM_NAMES)};\nexport const ASSISTANT_NAMES = ${JSON.stringify(ASSISTANT_NAMES)};\n`;
