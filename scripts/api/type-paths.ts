import ts from 'typescript';

/**
 * A TypeScript type as the keys a reader or writer of its values names: one entry per
 * property path (`summary.created`, `rows[].changes[].field`; `[]` is each element of a list),
 * with its type, whether it is always there, and the values a union of literals allows. Read
 * from the type checker, so types made from zod schemas, mapped types and intersections come
 * out as the compiler sees them. The CLI's `--json` documents and the client's inputs and
 * outputs are reported from these.
 */

export interface TypePath {
  /** '' for the type itself. */
  readonly path: string;
  /** The types it may have, sorted and joined with `|` (`number|string`), as the classifier reads them. */
  readonly type: string;
  readonly required: boolean;
  readonly choices?: readonly string[];
}

export interface TypePathOptions {
  /** Whether to list the properties of a named object type, or show it by its name only (a type reported on its own). */
  readonly expand?: (name: string) => boolean;
  readonly maxDepth?: number;
}

/** A program over some TypeScript files, with the project's compiler options (tsconfig.json). */
export function programOver(rootNames: readonly string[], tsconfig: string): ts.Program {
  const read = ts.readConfigFile(tsconfig, (path) => ts.sys.readFile(path));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, tsconfig.replace(/[/\\][^/\\]*$/, ''));
  return ts.createProgram({ rootNames: [...rootNames], options: { ...parsed.options, noEmit: true } });
}

/**
 * A named type declared outside the code being reported (TypeScript's lib, node_modules, a
 * vendored copy: Date, Promise, AbortSignal): shown by name. An anonymous object type made
 * there (zod's inferred output, a mapped type) is data, and is looked into.
 */
function declaredElsewhere(program: ts.Program, type: ts.Type): boolean {
  const symbol = type.getSymbol();
  if (!symbol || ANONYMOUS.has(symbol.getName())) return false;
  const declaration = symbol.declarations?.[0];
  if (!declaration) return false;
  const file = declaration.getSourceFile();
  return program.isSourceFileDefaultLibrary(file) || /[/\\](node_modules|vendor)[/\\]/.test(file.fileName);
}

const ANONYMOUS = new Set(['__type', '__object', '__objectLiteral']);

/** The name a named object type is declared with (an interface, a class, an alias), if any. */
function declaredName(type: ts.Type): string | undefined {
  const own = type.getSymbol()?.getName();
  if (own && !ANONYMOUS.has(own)) return own;
  return type.aliasSymbol?.getName();
}

const isUndefined = (type: ts.Type) => (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0;

export function typePaths(program: ts.Program, type: ts.Type, options: TypePathOptions = {}, required = true): TypePath[] {
  const checker = program.getTypeChecker();
  const maxDepth = options.maxDepth ?? 8;
  const entries: TypePath[] = [];

  /** What one member of a union contributes: its type's name and, for an object, itself to look into. */
  const describe = (member: ts.Type, stack: readonly ts.Type[]): { text: string; object?: ts.Type; element?: ts.Type; literal?: string } => {
    if (member.flags & ts.TypeFlags.StringLiteral) return { text: 'string', literal: (member as ts.StringLiteralType).value };
    if (member.flags & ts.TypeFlags.NumberLiteral) return { text: 'number', literal: String((member as ts.NumberLiteralType).value) };
    if (member.flags & ts.TypeFlags.BooleanLiteral) return { text: 'boolean', literal: checker.typeToString(member) };
    if (member.flags & ts.TypeFlags.Null) return { text: 'null' };
    if (checker.isArrayType(member) || checker.isTupleType(member)) {
      const [element] = checker.getTypeArguments(member as ts.TypeReference);
      return element ? { text: 'array', element } : { text: 'array' };
    }
    if (member.flags & ts.TypeFlags.Object || member.flags & ts.TypeFlags.Intersection) {
      if (member.getCallSignatures().length > 0) return { text: 'function' };
      const name = declaredName(member);
      if (declaredElsewhere(program, member) || stack.includes(member)) return { text: name ?? checker.typeToString(member) };
      if (name && options.expand && !options.expand(name)) return { text: name };
      return { text: 'object', object: member };
    }
    return { text: checker.typeToString(member) };
  };

  /** `given`: the types the value may have (a property of several alternatives has one from each). */
  const walk = (given: readonly ts.Type[], path: string, isRequired: boolean, stack: readonly ts.Type[]): void => {
    const members = [...new Set(given.flatMap((type) => (type.isUnion() ? type.types : [type])))].filter((member) => !isUndefined(member));
    const described = members.map((member) => describe(member, stack));
    // `boolean` is the union `true | false`: one type, not two choices.
    const literals = described.filter((d) => d.literal !== undefined && d.text !== 'boolean').map((d) => d.literal!);
    const wide = new Set(described.filter((d) => d.literal === undefined).map((d) => d.text));
    const choices = literals.length && !described.some((d) => d.literal === undefined && d.text === 'string') ? [...new Set(literals)].sort() : undefined;
    const type = [...new Set(described.map((d) => d.text))].sort().join('|') || 'undefined';
    entries.push({ path, type, required: isRequired, ...(choices && !wide.has('string') ? { choices } : {}) });
    if (stack.length >= maxDepth) return;

    const objects = described.flatMap((d) => (d.object ? [d.object] : []));
    const keys = new Map<string, { symbols: ts.Symbol[]; in: number }>();
    for (const object of objects) {
      for (const property of checker.getPropertiesOfType(object)) {
        const seen = keys.get(property.getName()) ?? { symbols: [], in: 0 };
        seen.symbols.push(property);
        seen.in += 1;
        keys.set(property.getName(), seen);
      }
    }
    for (const name of [...keys.keys()].sort()) {
      const { symbols, in: count } = keys.get(name)!;
      // Always there only when every alternative has it, and none leaves it optional.
      const always = count === objects.length && symbols.every((symbol) => (symbol.flags & ts.SymbolFlags.Optional) === 0);
      walk(
        symbols.map((symbol) => checker.getTypeOfSymbol(symbol)),
        path ? `${path}.${name}` : name,
        always,
        [...stack, ...objects],
      );
    }
    const lists = described.flatMap((d) => (d.element ? [d.element] : []));
    if (lists.length) walk(lists, `${path}[]`, true, [...stack, ...objects]);
  };

  walk([type], '', required, []);
  return entries;
}
