/**
 * PostgreSQL text search configurations by space `language`: stemming and stop words of the
 * language when PostgreSQL has them, `simple` (lower-casing only) otherwise. Languages written
 * without spaces (Chinese, Japanese, Korean...) are also indexed as character n-grams (see cjk.ts),
 * whatever the configuration.
 */
const CONFIG_BY_LANGUAGE: Readonly<Record<string, string>> = {
  en: 'english',
  fr: 'french',
  de: 'german',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  'pt-br': 'portuguese',
  ru: 'russian',
  nl: 'dutch',
  sv: 'swedish',
  no: 'norwegian',
  da: 'danish',
  fi: 'finnish',
  hu: 'hungarian',
  ro: 'romanian',
  tr: 'turkish',
};

export const SIMPLE_CONFIG = 'simple';

/** Every configuration an index row may use (the only values ever cast to `regconfig`). */
export const TEXT_SEARCH_CONFIGS: readonly string[] = [SIMPLE_CONFIG, ...new Set(Object.values(CONFIG_BY_LANGUAGE))];

export function textSearchConfig(language: string | null | undefined): string {
  return (language && CONFIG_BY_LANGUAGE[language.toLowerCase()]) || SIMPLE_CONFIG;
}
