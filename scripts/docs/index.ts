// The generated pages of docs/, each with the function that renders it from the code.
import { configurationMarkdown } from './configuration.ts';
import { errorsMarkdown } from './errors.ts';

export const GENERATED_DOCS: readonly (readonly [file: string, render: () => string])[] = [
  ['docs/configuration.md', configurationMarkdown],
  ['docs/errors.md', errorsMarkdown],
];
