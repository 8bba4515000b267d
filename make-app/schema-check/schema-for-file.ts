/**
 * Which of Make's official schemas governs which file of the local-development layout
 * (the table in ../shared/make-sdk-schemas/README.md, from the editor's jsonValidation).
 */
const BY_NAME: readonly [RegExp, string][] = [
  [/(^|\/)makecomapp\.json$/, 'makecomapp.schema.json'],
  [/(^|\/)general\/base\.iml\.json$/, 'base.json'],
  [/(^|\/)general\/common\.json$/, 'common.json'],
  [/(^|\/)modules\/groups\.json$/, 'groups.json'],
  [/\.(communication|attach|detach)\.iml\.json$/, 'api.json'],
  [/\.(params|static-params|mappable-params|interface)\.iml\.json$/, 'parameters.json'],
  [/\.samples\.iml\.json$/, 'samples.json'],
  [/\.epoch\.iml\.json$/, 'epoch.json'],
  [/\.scope-list\.iml\.json$/, 'scopes.json'],
  [/\.(default-scope|required-scope)\.iml\.json$/, 'scope.json'],
  [/\.oauth-communication\.iml\.json$/, 'api-oauth.json'],
];

/** The schema file for an app file, or undefined for files no schema governs (README.md). */
export function schemaForFile(path: string): string | undefined {
  return BY_NAME.find(([pattern]) => pattern.test(path))?.[1];
}
