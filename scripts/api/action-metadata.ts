import { parse } from 'yaml';
import { item, oneLine } from './item-list.ts';
import type { ApiItem } from './model.ts';

interface ActionMetadata {
  name?: string;
  inputs?: Record<string, { description?: string; required?: boolean | string; default?: unknown; deprecationMessage?: string } | null>;
  outputs?: Record<string, { description?: string; value?: string } | null>;
  runs?: { using?: string };
}

/**
 * A GitHub Action's public interface, read from its action.yml as GitHub reads it: the
 * repository a workflow `uses:`, the runtime (a runner must offer it), each input (what a
 * workflow's `with:` names; required, default, deprecation) and each output (what later steps
 * read as `steps.<id>.outputs.<name>`). Input names are matched by GitHub without regard to
 * case, so they are reported as written.
 */
export function actionItems(actionYml: string, repository: string): ApiItem[] {
  const metadata = (parse(actionYml) ?? {}) as ActionMetadata;
  const items: ApiItem[] = [item('action', 'action', { signature: repository, kind: metadata.runs?.using, label: metadata.name })];
  for (const [name, input] of Object.entries(metadata.inputs ?? {})) {
    items.push(
      item(`input/${name}`, 'action-input', {
        // action.yml allows `required: 'true'` as text; GitHub reads either.
        required: input?.required === true || input?.required === 'true',
        default: input?.default === undefined ? undefined : String(input.default),
        deprecationMessage: oneLine(input?.deprecationMessage),
        // A deprecated input is on its way out, as a hidden operation is.
        hidden: input?.deprecationMessage ? true : undefined,
        description: oneLine(input?.description),
      }),
    );
  }
  for (const [name, output] of Object.entries(metadata.outputs ?? {})) {
    items.push(item(`output/${name}`, 'output', { description: oneLine(output?.description) }));
  }
  return items;
}
