import type { ApiLanguage } from '../i18n.ts';

/** Message keys with their words in both API languages; a text takes `{name}` parameters. */
export type Catalogue = Record<string, Record<ApiLanguage, string>>;
