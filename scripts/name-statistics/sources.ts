import { allLocales } from '@faker-js/faker';
import { ASSEMBLED } from './assembled-names.ts';

/**
 * Where the name statistics come from (build.ts): for each language the sync reader scores
 * readings in, faker's lists of given and family names for its locales, and the names
 * assembled beside them (assembled-names.ts). faker is a devDependency pinned to one version,
 * so the same lists give the same statistics on every machine.
 */
export const LANGUAGE_SOURCES: Readonly<Record<string, readonly string[]>> = {
  en: ['en', 'en_US', 'en_GB', 'en_AU', 'en_CA', 'en_IE'],
  de: ['de', 'de_AT', 'de_CH'],
  fr: ['fr', 'fr_BE', 'fr_CA', 'fr_CH', 'fr_LU'],
  es: ['es', 'es_MX'],
  it: ['it'],
  nl: ['nl', 'nl_BE'],
  sv: ['sv'],
  pt: ['pt_BR', 'pt_PT'],
  no: ['nb_NO'],
  da: ['da'],
  fi: ['fi'],
  is: [],
  ca: [],
  pl: ['pl'],
  cs: ['cs_CZ'],
  sk: ['sk'],
  hu: ['hu'],
  ro: ['ro', 'ro_MD'],
  hr: ['hr', 'sr_RS_latin'],
  sl: ['sl_SI'],
  tr: ['tr'],
  az: ['az'],
  lv: ['lv'],
  lt: [],
  et: [],
  vi: ['vi'],
  ru: ['ru'],
  uk: ['uk'],
  bg: [],
  mk: ['mk'],
  el: ['el'],
  he: ['he'],
  ar: ['ar'],
  fa: ['fa'],
  th: ['th'],
  ja: ['ja'],
  zh: ['zh_CN'],
  'zh-Hant': ['zh_TW'],
  ko: ['ko'],
};

type NameList = readonly string[] | Readonly<Record<string, readonly string[]>> | undefined;
const flat = (list: NameList): readonly string[] => (list === undefined ? [] : Array.isArray(list) ? list : Object.values(list).flat());

/** The names of one language: faker's given, middle and family names of its locales, then the assembled ones. */
export function namesOf(language: string): string[] {
  const fromFaker = (LANGUAGE_SOURCES[language] ?? []).flatMap((code) => {
    const person = (allLocales as Record<string, { person?: Record<string, NameList> }>)[code]?.person;
    if (person === undefined) throw new Error(`faker has no person names for ${code}`);
    return [...flat(person['first_name']), ...flat(person['middle_name']), ...flat(person['last_name'])];
  });
  return [...fromFaker, ...(ASSEMBLED[language]?.split(' ') ?? [])];
}
