import { foldWord } from '../../shared/directory-sync/name-letters.ts';
import { LANGUAGE_SOURCES, namesOf } from '../name-statistics/sources.ts';

/**
 * Names kept out of the statistics (scripts/name-statistics/), so the reader is measured on
 * names it was not built from: given names, then family names, per locale of the corpus.
 * heldOutNames drops any word that is in the lists the letter tables are built from.
 */
const CANDIDATES: Readonly<Record<string, { readonly given: readonly string[]; readonly family: readonly string[] }>> = {
  'fr-FR': {
    given: ['Gwenaëlle', 'Aloïs', 'Héloïse', 'Sidonie', 'Lucienne', 'Évariste', 'Gwladys', 'Maïwenn', 'Enguerrand', 'Ludivine'],
    family: ['Courbière', 'Desjardins', 'Pâquerette', 'Vallée', 'Marchand-Lebœuf', 'Chênelière', 'Quéméneur', 'Kerhervé', 'Grosbœuf'],
  },
  'de-DE': {
    given: ['Wiebke', 'Hannelore', 'Götz', 'Rüdiger', 'Fränzi', 'Jörgen', 'Hiltrud', 'Lüder'],
    family: ['Löwenthal', 'Büttner', 'Häberle', 'Kürzinger', 'Röckl', 'Schöllhorn', 'Schmöller', 'Dürrwächter'],
  },
  'es-ES': {
    given: ['Maialen', 'Anselmo', 'Rosalía', 'Fermín', 'Eugenia', 'Críspulo'],
    family: ['Villalón', 'Echániz', 'Arazuri', 'Sagüés', 'Urdangarín', 'Peñalver'],
  },
  'sv-SE': { given: ['Sölve', 'Gunnel', 'Ragnvald', 'Märit', 'Tyra', 'Åsmund'], family: ['Östgren', 'Högberg', 'Vånell', 'Skölvik', 'Tjärnberg', 'Ågren'] },
  'nb-NO': { given: ['Bjørnar', 'Kåre', 'Gro', 'Ørnulf', 'Hjørdis', 'Audun'], family: ['Grønnevik', 'Stålesen', 'Bøe', 'Kvålsvoll', 'Rødseth', 'Flåten'] },
  'pt-PT': {
    given: ['Lurdes', 'Custódio', 'Graça', 'Inácio', 'Domingas', 'Conceição'],
    family: ['Sobrão', 'Azevêdo', 'Caldeirão', 'Brazão', 'Assumpção', 'Pestanão'],
  },
  'pl-PL': {
    given: ['Bożydar', 'Wiesława', 'Lechosław', 'Jadwiga', 'Świętosław', 'Dobrosława'],
    family: ['Gąsiorowski', 'Chmielewska', 'Żmuda', 'Łęcka', 'Ściborski', 'Kłosińska'],
  },
  'cs-CZ': {
    given: ['Bořivoj', 'Vítězslava', 'Květoslav', 'Ludmila', 'Dobromil', 'Žofie', 'Bohumil', 'Ctirad', 'Radmila'],
    family: ['Šťastný', 'Vrchlický', 'Křížek', 'Oubrechtová', 'Hrdlička', 'Ťoupalová', 'Šťovíček', 'Třešňák', 'Žďárský', 'Kůrka'],
  },
  'hu-HU': { given: ['Ottó', 'Hunor', 'Gyöngyvér', 'Zsombor', 'Emőke', 'Kund'], family: ['Ördögh', 'Szűrös', 'Bőröcz', 'Tüskés', 'Gyűrűs', 'Kőrösi'] },
  'ro-RO': {
    given: ['Ovidiu', 'Sânziana', 'Ştefăniţă', 'Doiniţa', 'Horaţiu', 'Anişoara', 'Voichiţa', 'Lăcrămioara'],
    family: ['Pârvulescu', 'Ţăranu', 'Găităniceanu', 'Muşat', 'Vlădescu', 'Străjeru', 'Ţârcovnicu', 'Bălăceanu'],
  },
  'ru-RU': {
    given: ['Святослав', 'Ефросинья', 'Всеволод', 'Ульяна', 'Ярополк', 'Злата', 'Елисей', 'Агния', 'Фрол', 'Василиса'],
    family: ['Щербатов', 'Вяземская', 'Шереметьев', 'Голицына', 'Оболенский', 'Трубецкая', 'Пожарский', 'Шуйская', 'Ртищев'],
  },
  'bg-BG': {
    given: ['Живко', 'Пенка', 'Ружа', 'Благой', 'Здравка', 'Тихомир', 'Огнян', 'Светлозар', 'Трендафилка'],
    family: ['Чернокожев', 'Търнев', 'Хаджидимов', 'Шишков', 'Зографска', 'Въжаров', 'Кехайов', 'Драгостинов', 'Мърваров'],
  },
  'el-GR': {
    given: ['Σταμάτης', 'Πηνελόπη', 'Λεωνίδας', 'Θεανώ', 'Ερμιόνη', 'Φραγκίσκος'],
    family: ['Τσιμπούκης', 'Βλαχογιάννη', 'Κατσαρός', 'Ξενάκη', 'Ρηγόπουλος', 'Λαμπράκη'],
  },
  'tr-TR': {
    given: ['Tuğçe', 'Güneş', 'Özgür', 'Işıl', 'Süheyla', 'Çiğdem', 'Nilgün', 'Oğuzhan', 'Gülşah'],
    family: ['Karagöz', 'Büyükşahin', 'Tekgül', 'Çakıroğlu', 'Gündoğdu', 'Şenocak', 'Öztoprak', 'Yıldırımgöz', 'Kuşçuoğlu'],
  },
  'lt-LT': {
    given: ['Vaiva', 'Gražvydas', 'Rūtilė', 'Mykolas', 'Dovilė', 'Ąžuolė'],
    family: ['Kuzminskas', 'Jasaitienė', 'Čiapas', 'Girdžiūnas', 'Mickevičiūtė', 'Šeštokas'],
  },
  'lv-LV': {
    given: ['Ģirts', 'Austra', 'Eglons', 'Māra', 'Ņikita', 'Ruta', 'Dzintars', 'Elīna'],
    family: ['Kociņš', 'Purvīte', 'Ķēniņš', 'Dzērve', 'Saulīte', 'Grīnbergs', 'Šķēle', 'Vējonis'],
  },
};

let training: ReadonlySet<string> | undefined;

/** A locale's held-out names: the candidates above none of whose words the statistics were built from. */
export function heldOutNames(locale: string): { readonly given: readonly string[]; readonly family: readonly string[] } {
  training ??= new Set(Object.keys(LANGUAGE_SOURCES).flatMap((language) => namesOf(language).flatMap((name) => name.split(/[\s\-'’.]+/u).map(foldWord))));
  const unseen = (names: readonly string[]) => names.filter((name) => name.split(/[\s-]+/u).every((word) => !training!.has(foldWord(word))));
  const { given, family } = CANDIDATES[locale]!;
  return { given: unseen(given), family: unseen(family) };
}

export const HELD_OUT_LOCALES = Object.keys(CANDIDATES);
