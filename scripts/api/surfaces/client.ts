import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// API Extractor loads only when the client is read afresh: a kept reading needs none of it.
import type { ApiDeclaredItem, ApiItemKind, ApiItem as ModelItem } from '@microsoft/api-extractor-model';
import ts from 'typescript';
import { item, oneLine, report, sortedList } from '../item-list.ts';
import { kept, sourcesDigest } from '../kept-reads.ts';
import type { ApiItem, ExtractOptions, SurfaceExtractor } from '../model.ts';
import { DEFAULT_BASE_URL } from '../../../shared/settings.ts';
import { TRANSPORT_DEFAULTS } from '../../../shared/transports/defaults.ts';
import { type TypePath, typePaths } from '../type-paths.ts';

/**
 * `@pagerly/client`'s public interface, as TypeScript users depend on it: the package is built
 * into a temporary folder (its declarations, as `npm run build` makes them), API Extractor
 * reads them, and its doc model gives one item per export and member with its kind and
 * signature. A declaration's signature does not show what a key of a method's input is called
 * when the type is made from a zod schema or a mapped type (`PagerlyClient`), so the type
 * checker lists those: each method's input and output keys, each option type's properties,
 * each with its type and whether it is required. API Extractor's own report (`client.api.md`,
 * what TypeScript reviewers know) is written beside the report (`extractWithFiles`).
 */

export const CLIENT_API_MARKDOWN = 'client.api.md';

/** Types the client hands to the user's code to read (a transport's request, a retry's notice): their properties are outputs. */
const READ_BY_USERS = new Set(['HttpRequest', 'RetryNotice']);

interface Extracted {
  readonly markdown: string;
  readonly items: ApiItem[];
}

/** How the declarations are read: as a consumer's compiler on any runtime would. */
const compilerOptions = {
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2024',
  // AbortSignal and fetch's types: the package runs on Node, Bun and Deno, each with them.
  lib: ['es2024', 'dom'],
  strict: true,
  skipLibCheck: true,
  types: [],
};

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The client read (declarations, API Extractor, the type checker), kept by a digest of what it is
 * read from (kept-reads.ts): the client's sources and what they import, how they are read (this
 * file and what it imports, client/declarations.ts), and the packages; then what a setting left
 * out stands for added, from the tables the client reads.
 */
async function extractClient(options: ExtractOptions = {}, withMarkdown = true): Promise<Extracted> {
  const sources = ['client/index.ts', 'client/declarations.ts', 'scripts/api/surfaces/client.ts'].map((file) => join(root, file));
  const digest = sourcesDigest(root, sources, [String(withMarkdown)]);
  const read = await kept(options, withMarkdown ? 'client-with-api-md' : 'client', digest, () => readClient(withMarkdown));
  return { markdown: read.markdown, items: withDefaults(read.items) };
}

/** The package's declarations written into a temporary folder, read by API Extractor and the type checker, and the folder removed. */
async function readClient(withMarkdown: boolean): Promise<Extracted> {
  const { CLIENT_PACKAGE, writeClientDeclarations } = await import('../../../client/declarations.ts');
  const { Extractor, ExtractorConfig, ExtractorLogLevel } = await import('@microsoft/api-extractor');
  const { ApiItemKind: kinds, ApiModel } = await import('@microsoft/api-extractor-model');
  const folder = mkdtempSync(join(tmpdir(), 'pagerly-client-api-'));
  try {
    // Only what API Extractor and the type checker read: the declarations and the package's name.
    writeClientDeclarations(join(folder, 'package', 'types'), { check: 'declarations' });
    writeFileSync(
      join(folder, 'package', 'package.json'),
      `${JSON.stringify({ name: CLIENT_PACKAGE, version: '0.0.0', types: './types/client/index.d.ts' })}\n`,
    );
    const entry = join(folder, 'package', 'types', 'client', 'index.d.ts');
    const reportFolder = join(folder, 'report');
    mkdirSync(reportFolder);
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: join(folder, 'package'),
        mainEntryPointFilePath: entry,
        compiler: { overrideTsconfig: { compilerOptions } },
        // API Extractor's own report (client.api.md) only where it is written: api:update.
        apiReport: { enabled: withMarkdown, reportFolder, reportTempFolder: reportFolder, reportFileName: 'client' },
        docModel: { enabled: true, apiJsonFilePath: join(reportFolder, 'client.api.json') },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // Missing doc comments and unexported helper types are the report's business, not failures.
          extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: join(folder, 'package', 'package.json'),
    });
    const problems: string[] = [];
    const result = Extractor.invoke(config, {
      localBuild: true,
      messageCallback: (message) => {
        if (message.logLevel === ExtractorLogLevel.Error) problems.push(message.text);
        message.handled = true;
      },
    });
    if (!result.succeeded) throw new Error(`API Extractor could not read ${CLIENT_PACKAGE}'s declarations:\n${problems.join('\n')}`);
    const markdown = withMarkdown ? readFileSync(join(reportFolder, 'client.api.md'), 'utf8') : '';
    const model = new ApiModel().loadPackage(join(reportFolder, 'client.api.json'));
    const items = modelItems(model.entryPoints[0]?.members ?? [], kinds);
    const expanded = declarationItems(entry, new Set(items.filter((i) => i.kind === 'export').map((i) => i.id.slice('export/'.length))));
    return { markdown, items: [...items.map((i) => wordingWhereExpanded(i, expanded)), ...expanded] };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * What a setting left out stands for, which no declaration says: the tables the client reads
 * (shared/transports/defaults.ts, the default base). Code that leaves a setting out gets it.
 */
const SETTING_DEFAULTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(TRANSPORT_DEFAULTS).map(([name, value]) => [name, String(value)])),
  baseUrl: DEFAULT_BASE_URL,
};

function withDefaults(items: readonly ApiItem[]): ApiItem[] {
  const prefix = 'export/ClientSettings/member/';
  return items.map((entry) => {
    const name = entry.id.startsWith(prefix) ? entry.id.slice(prefix.length) : undefined;
    return name && Object.hasOwn(SETTING_DEFAULTS, name) ? item(entry.id, entry.kind, { ...entry.facts, default: SETTING_DEFAULTS[name] }) : entry;
  });
}

/**
 * A type alias whose members the checker lists (`PagerlyClient`, `ClientSettings`): each member
 * is judged by its own facts (a method added, an option made optional: compatible), so the
 * alias's whole text is wording rather than a signature any change to which is breaking.
 */
function wordingWhereExpanded(declaration: ApiItem, expanded: readonly ApiItem[]): ApiItem {
  if (declaration.kind !== 'export' || declaration.facts['kind'] !== 'type-alias') return declaration;
  if (!expanded.some((i) => i.id.startsWith(`${declaration.id}/member/`))) return declaration;
  const { signature, ...facts } = declaration.facts;
  return item(declaration.id, declaration.kind, { ...facts, declaration: signature });
}

/** A declaration's text on one line; unions without spaces, so the classifier reads `string|undefined` as two types. */
const signatureOf = (text: string) => oneLine(text.replace(/\s*\|\s*/g, '|'));

/** ApiItemKind `PropertySignature` → `property-signature`. */
const kindName = (kind: ApiItemKind) => kind.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

function memberName(member: ModelItem, siblings: readonly ModelItem[], kinds: typeof ApiItemKind): string {
  const name = member.kind === kinds.Constructor ? 'constructor' : member.displayName;
  const overloads = siblings.filter((s) => s.displayName === member.displayName && s.kind === member.kind);
  const index = (member as { overloadIndex?: number }).overloadIndex;
  return overloads.length > 1 && index !== undefined ? `${name}(${index})` : name;
}

/** One item per export and per member, from API Extractor's doc model. */
function modelItems(exports: readonly ModelItem[], kinds: typeof ApiItemKind): ApiItem[] {
  const items: ApiItem[] = [];
  for (const declaration of exports) {
    const name = memberName(declaration, exports, kinds);
    items.push(item(`export/${name}`, 'export', { kind: kindName(declaration.kind), signature: signatureOf((declaration as ApiDeclaredItem).excerpt.text) }));
    for (const member of declaration.members) {
      const facts: Record<string, string | boolean | undefined> = {
        kind: kindName(member.kind),
        signature: signatureOf((member as ApiDeclaredItem).excerpt.text),
      };
      let kind = 'member';
      if (member.kind === kinds.PropertySignature || member.kind === kinds.Property) {
        const property = member as ApiDeclaredItem & { isOptional: boolean; propertyTypeExcerpt: { text: string } };
        const type = signatureOf(property.propertyTypeExcerpt.text);
        facts['required'] = !property.isOptional;
        if (type) {
          // Type and required say what the declaration does, each by its own rule (an input made
          // optional is compatible); its text is then wording. A property typed by its value
          // (`code = "authentication"`) has no type to read: its text stays the signature.
          facts['type'] = type;
          facts['declaration'] = facts['signature'];
          delete facts['signature'];
        }
        // Settings and options are given by the user; an error's fields and what a transport is handed are read.
        kind = member.kind === kinds.PropertySignature && !READ_BY_USERS.has(declaration.displayName) ? 'property' : 'output';
      }
      items.push(item(`export/${name}/member/${memberName(member, declaration.members, kinds)}`, kind, facts));
    }
  }
  return items;
}

const pathFacts = (entry: TypePath) => ({
  type: entry.type,
  required: entry.required,
  choices: entry.choices,
  list: entry.type === 'array' ? true : undefined,
});

/**
 * What the doc model cannot show, from the type checker over the same declarations: each
 * method of `PagerlyClient` (a mapped type) with its input and output keys, the properties of
 * the other object-like type aliases (`ClientSettings`), and the values of a union of literals
 * (`EndpointKey`, `PagerlyErrorCode`).
 */
export function declarationItems(entry: string, exported: ReadonlySet<string>): ApiItem[] {
  const { options } = ts.convertCompilerOptionsFromJson(compilerOptions, '.');
  const program = ts.createProgram({ rootNames: [entry], options: { ...options, noEmit: true } });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry} is not a module`);
  // A type the package exports is reported on its own: elsewhere it is named, not looked into.
  const expand = (name: string) => !exported.has(name);
  const items: ApiItem[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const name = symbol.getName();
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (!(target.flags & ts.SymbolFlags.TypeAlias)) continue;
    const type = checker.getDeclaredTypeOfSymbol(target);
    if (type.isUnion() && type.types.every((member) => member.isStringLiteral())) {
      items.push(item(`export/${name}/values`, 'output', { choices: sortedList(type.types.map((member) => (member as ts.StringLiteralType).value)) }));
      continue;
    }
    if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) || type.getCallSignatures().length > 0) continue;
    for (const property of checker.getPropertiesOfType(type)) {
      const member = `export/${name}/member/${property.getName()}`;
      const propertyType = checker.getTypeOfSymbol(property);
      const signatures = propertyType.getCallSignatures();
      if (signatures.length === 0) {
        const [root] = typePaths(program, propertyType, { expand, maxDepth: 1 }, (property.flags & ts.SymbolFlags.Optional) === 0);
        items.push(item(member, 'property', pathFacts(root!)));
        continue;
      }
      const signature = signatures[0]!;
      // A method written out (`call`, `check`) as written; one the mapped type makes, as the checker spells it.
      const written = property.declarations?.find((d) => ts.isMethodSignature(d) || ts.isPropertySignature(d));
      const text = signatureOf(written ? written.getText() : checker.signatureToString(signature, undefined, ts.TypeFormatFlags.NoTruncation));
      // A generic method (`call<K>`) is only its signature: its input depends on the key.
      if (signature.getTypeParameters()?.length) {
        items.push(item(member, 'method', { signature: text }));
        continue;
      }
      // The others' parameters and answer are items of their own, each judged by its rule (a
      // new optional input key is compatible); the whole text is then wording.
      items.push(item(member, 'method', { declaration: text }));
      // Each parameter by its name (`input` for every endpoint's method), its keys below it.
      for (const parameter of signature.getParameters()) {
        const declaration = parameter.valueDeclaration;
        const optional = declaration !== undefined && ts.isParameter(declaration) && declaration.questionToken !== undefined;
        for (const path of typePaths(program, checker.getTypeOfSymbol(parameter), { expand }, !optional)) {
          items.push(item(`${member}/${parameter.getName()}${path.path ? `/${path.path}` : ''}`, 'property', pathFacts(path)));
        }
      }
      const answer = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
      for (const path of typePaths(program, answer, { expand })) {
        items.push(item(`${member}/output${path.path ? `/${path.path}` : ''}`, 'output', pathFacts(path)));
      }
    }
  }
  return items;
}

/** The report and API Extractor's markdown from one build, for a caller that writes both. */
export async function extractClientWithMarkdown(options: ExtractOptions = {}): Promise<{ report: ReturnType<typeof report>; markdown: string }> {
  const { markdown, items } = await extractClient(options);
  return { report: report('client', items), markdown };
}

export const extractor: SurfaceExtractor = {
  surface: 'client',
  async extract(options = {}) {
    return report('client', (await extractClient(options, false)).items);
  },
  async extractWithFiles(options = {}) {
    const { report: made, markdown } = await extractClientWithMarkdown(options);
    return { report: made, beside: { [CLIENT_API_MARKDOWN]: markdown } };
  },
};
