import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { connection } from '../../shared/operations/connection.ts';
import { BUNDLE_FILES } from './bundle.ts';

/**
 * The project's own review of the built Zapier app: the checks of Zapier's publishing review
 * that can be run offline, and two of the bundle's own, each quoting the page it comes from.
 * It reads what is uploaded (the staged folder the CLI zips), never the sources, so a finding is
 * what Zapier's reviewer would see. `npm run build` fails on any finding.
 */

const PAGES = {
  checks: 'https://docs.zapier.com/platform/publish/integration-checks-reference',
  requirements: 'https://docs.zapier.com/platform/publish/integration-publishing-requirements',
  connectionLabel: 'https://docs.zapier.com/platform/build/connection-label',
  nodeSourceMaps: 'https://nodejs.org/api/process.html#processsetsourcemapsenabledval',
  cliTemplate: 'https://github.com/zapier/zapier-platform/blob/main/packages/cli/src/generators/templates/index.template.js',
} as const;

interface Display {
  label?: string;
  description?: string;
  hidden?: boolean;
}
interface Described {
  key?: string;
  display?: Display;
}
/** The parts of a Zapier app definition the rules read (core's App type, loosely: it is read from a file). */
export interface ZapierDefinition {
  version?: string;
  authentication?: { fields?: { key?: string; helpText?: string }[]; connectionLabel?: unknown };
  triggers?: Record<string, Described>;
  creates?: Record<string, Described>;
  searches?: Record<string, Described>;
  searchOrCreates?: Record<string, Described>;
}

/** The built app as the review sees it: the definition Zapier loads and the text of the files beside it. */
export interface BuiltZapierApp {
  definition: ZapierDefinition;
  /** By name: package.json and the bundle's files (BUNDLE_FILES); a missing file is absent. */
  files: ReadonlyMap<string, string>;
}

export interface ReviewRule {
  id: string;
  /** The page the rule comes from and what it says there: verbatim in quotation marks, else "In substance:" and the gist. */
  page: string;
  quote: string;
  /** What breaks the rule, one line each; none when it holds. */
  check(app: BuiltZapierApp): string[] | Promise<string[]>;
}

export interface Finding {
  rule: string;
  page: string;
  problem: string;
}

/** Reads a staged or extracted Zapier app folder. The app is required directly, not through the loader, so this process's source-map setting is left alone. */
export function readBuiltApp(dir: string): BuiltZapierApp {
  const files = new Map<string, string>();
  for (const name of ['package.json', ...Object.values(BUNDLE_FILES)]) {
    try {
      files.set(name, readFileSync(join(dir, name), 'utf8'));
    } catch {
      // Absent: the rules that need it say so.
    }
  }
  const definition = createRequire(join(dir, BUNDLE_FILES.loader))(`./${BUNDLE_FILES.app}`) as ZapierDefinition;
  return { definition, files };
}

const visibleOperations = (definition: ZapierDefinition) =>
  (['triggers', 'creates', 'searches'] as const).flatMap((kind) =>
    Object.entries(definition[kind] ?? {})
      .filter(([, operation]) => !operation.display?.hidden)
      .map(([key, operation]) => ({ kind, key, display: operation.display ?? {} })),
  );

/** Articles, coordinating conjunctions and short prepositions: lower case inside a title (AP and Chicago agree on these). */
const MINOR_WORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'but',
  'or',
  'nor',
  'for',
  'so',
  'yet',
  'as',
  'at',
  'by',
  'in',
  'of',
  'on',
  'to',
  'up',
  'via',
  'per',
  'vs',
]);

/** The words of a label that break title case: minor words capitalized inside it, other words (and a first or last word) not capitalized. */
export function titleCaseProblems(label: string): string[] {
  const words = label.split(/\s+/).filter(Boolean);
  return words.flatMap((word, i) => {
    const edge = i === 0 || i === words.length - 1;
    const bare = word.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
    if (bare === '' || /^[0-9]/.test(bare)) return [];
    if (!edge && MINOR_WORDS.has(bare.toLowerCase())) return bare === bare.toLowerCase() ? [] : [`"${bare}" should be lower case`];
    // Each part of a hyphenated word is capitalized: "On-Call".
    return bare.split('-').every((part) => part === '' || /^[A-Z0-9]/.test(part)) ? [] : [`"${bare}" should be capitalized`];
  });
}

/** At most this many words: a trigger's description is "Triggers when" and a short clause. */
export const MAX_TRIGGER_DESCRIPTION_WORDS = 15;

const MARKDOWN_LINK = /\[[^\]\n]+\]\(https:\/\/[^)\s]+\)/;

// A key-shaped text the label must never show, and a check that names nobody but quotes it.
const REVIEW_KEY = 'review-key-5c1d9e07a4b3';

async function labelFor(label: unknown, check: Record<string, unknown>): Promise<unknown> {
  if (typeof label !== 'function') return label;
  return await label({}, { inputData: check, authData: { apiKey: REVIEW_KEY } });
}

export const zapierReviewRules: readonly ReviewRule[] = [
  {
    id: 'D002',
    page: PAGES.checks,
    quote: "In substance: D002, an authentication field's help text links to the page of the app where the user finds the credential.",
    check: ({ definition }) =>
      (definition.authentication?.fields ?? []).flatMap((field) =>
        MARKDOWN_LINK.test(field.helpText ?? '')
          ? []
          : [`authentication field "${field.key}": its help text has no Markdown link [text](https://…) to where the key is found`],
      ),
  },
  {
    id: 'D003',
    page: PAGES.connectionLabel,
    quote:
      '"Zapier always includes the app\'s name in each account label, so it is redundant to add any hard coded app name into your connection label." (the page D003 of the integration checks reference points to)',
    async check({ definition }) {
      const label = definition.authentication?.connectionLabel;
      if (label === undefined) return ['authentication has no connectionLabel: every connection would read only "Pagerly #n"'];
      if (typeof label === 'string') {
        const problems = /\{\{[^}]+\}\}/.test(label) ? [] : [`connectionLabel "${label}" is fixed text: it tells no two connections apart`];
        return label.includes(connection.label) ? [...problems, `connectionLabel "${label}" repeats the app's name`] : problems;
      }
      const problems: string[] = [];
      const named = await labelFor(label, { user: { name: 'Review Person', email: 'review@example.com' }, organization: { name: 'Review Org' } });
      if (typeof named !== 'string' || !named.includes('Review Person'))
        problems.push(`a key check that names its owner gives the label ${JSON.stringify(named)}, which does not name them`);
      for (const check of [{}, { valid: true }, { user: { name: `Key ${REVIEW_KEY}` } }]) {
        const shown = await labelFor(label, check);
        if (typeof shown !== 'string') problems.push(`a key check of ${JSON.stringify(check)} gives a label that is not text: ${JSON.stringify(shown)}`);
        else if (shown.includes(connection.label)) problems.push(`a key check that names nobody gives "${shown}", a fixed text with the app's name`);
        else if (shown.includes(REVIEW_KEY.slice(-8))) problems.push(`a key check of ${JSON.stringify(check)} gives a label holding the key`);
      }
      return problems;
    },
  },
  {
    id: 'D018',
    page: PAGES.checks,
    quote: 'In substance: D018, trigger, action and search labels are in title case.',
    check: ({ definition }) => {
      const labelled = [
        ...visibleOperations(definition),
        ...Object.entries(definition.searchOrCreates ?? {}).map(([key, pair]) => ({ kind: 'searchOrCreates', key, display: pair.display ?? {} })),
      ];
      return labelled.flatMap(({ kind, key, display }) =>
        titleCaseProblems(display.label ?? '').map((problem) => `${kind}.${key} label "${display.label}": ${problem}`),
      );
    },
  },
  {
    id: 'D021 / 4.1',
    page: PAGES.requirements,
    quote:
      'In substance: section 4.1 (Triggers), a trigger\'s description reads "Triggers when…" and says in a few words when it fires; D021 of the integration checks reference asks for the same opening.',
    check: ({ definition }) =>
      visibleOperations(definition)
        .filter(({ kind }) => kind === 'triggers')
        .flatMap(({ key, display }) => {
          const description = display.description ?? '';
          const words = description.split(/\s+/).filter(Boolean).length;
          const sentences = description.split(/(?<=[.!?])\s+/).filter(Boolean).length;
          return [
            ...(/^Triggers when /.test(description) ? [] : [`triggers.${key}: the description does not start "Triggers when "`]),
            ...(sentences === 1 && /\.$/.test(description) ? [] : [`triggers.${key}: the description is ${sentences} sentences, not one ending in "."`]),
            ...(words <= MAX_TRIGGER_DESCRIPTION_WORDS
              ? []
              : [`triggers.${key}: the description is ${words} words, more than ${MAX_TRIGGER_DESCRIPTION_WORDS}`]),
          ];
        }),
  },
  {
    id: 'own package.json',
    page: PAGES.cliTemplate,
    quote: "In substance: the CLI's app template takes the app's version from the app's own package.json, `version: require('./package.json').version`.",
    check: ({ definition, files }) => {
      const manifest = files.get('package.json');
      if (manifest === undefined) return ['no package.json beside the bundle'];
      const parsed = JSON.parse(manifest) as Record<string, unknown>;
      const problems: string[] = [];
      const dependencies = Object.keys((parsed.dependencies ?? {}) as object);
      if (dependencies.join() !== 'zapier-platform-core')
        problems.push(`package.json depends on ${dependencies.join(', ') || 'nothing'}, not on zapier-platform-core alone`);
      for (const key of ['devDependencies', 'scripts', 'overrides', 'allowScripts', 'bin']) if (key in parsed) problems.push(`package.json has "${key}"`);
      if (definition.version !== parsed.version) problems.push(`the app says version ${definition.version}, its package.json ${String(parsed.version)}`);
      // The repository's manifest inlined into the bundle (a JSON import) shows by its keys.
      const bundle = files.get(BUNDLE_FILES.app) ?? '';
      const inlined = ['devDependencies', 'allowScripts', 'overrides'].filter((key) => new RegExp(`[{,"]${key}"?:`).test(bundle));
      if (inlined.length > 0) problems.push(`${BUNDLE_FILES.app} inlines a package manifest that is not the app's (it has ${inlined.join(', ')})`);
      return problems;
    },
  },
  {
    id: 'source map',
    page: PAGES.nodeSourceMaps,
    quote: 'process.setSourceMapsEnabled: "Only source maps in JavaScript files that are loaded after source maps has been enabled will be parsed and loaded."',
    check: ({ files }) => {
      const loader = files.get(BUNDLE_FILES.loader) ?? '';
      const bundle = files.get(BUNDLE_FILES.app);
      const map = files.get(BUNDLE_FILES.map);
      const problems: string[] = [];
      const enables = loader.indexOf('process.setSourceMapsEnabled(true)');
      const loads = loader.indexOf(`require("./${BUNDLE_FILES.app}")`);
      if (enables < 0 || loads < 0 || enables > loads) problems.push(`${BUNDLE_FILES.loader} does not turn source maps on before it loads ${BUNDLE_FILES.app}`);
      if (bundle === undefined) return [...problems, `no ${BUNDLE_FILES.app}`];
      if (!bundle.trimEnd().endsWith(`//# sourceMappingURL=${BUNDLE_FILES.map}`)) problems.push(`${BUNDLE_FILES.app} does not name its source map`);
      if (map === undefined) return [...problems, `no ${BUNDLE_FILES.map}`];
      const parsed = JSON.parse(map) as { version?: number; sources?: string[]; mappings?: string };
      const sources = parsed.sources ?? [];
      if (parsed.version !== 3 || !parsed.mappings) problems.push(`${BUNDLE_FILES.map} is not a version 3 map with mappings`);
      for (const source of ['zapier-app/index.ts', 'shared/http/request.ts']) {
        if (!sources.some((s) => s.endsWith(source))) problems.push(`${BUNDLE_FILES.map} does not map back to ${source}`);
      }
      return problems;
    },
  },
];

/** Every finding of every rule on a built app; none is the goal. */
export async function reviewZapierApp(app: BuiltZapierApp, rules: readonly ReviewRule[] = zapierReviewRules): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const rule of rules) {
    for (const problem of await rule.check(app)) findings.push({ rule: rule.id, page: rule.page, problem });
  }
  return findings;
}
