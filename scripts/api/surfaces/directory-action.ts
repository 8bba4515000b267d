import { actionItems } from '../action-metadata.ts';
import { item, report, sortedList } from '../item-list.ts';
import type { SurfaceExtractor } from '../model.ts';

/** The directory-sync Action (`pagerly/directory-sync-action`): its action.yml as `npm run build` writes it, made in memory, and the modes it takes. */
export const extractor: SurfaceExtractor = {
  surface: 'directory-action',
  async extract() {
    const [{ directoryActionYml, DIRECTORY_ACTION_REPOSITORY }, { DIRECTORY_MODES, DIRECTORY_RUN_MODES }] = await Promise.all([
      import('../../../github-action/directory/build.ts'),
      import('../../../github-action/directory/modes.ts'),
    ]);
    // The modes the runtime accepts, and the ones the `mode` output says, which action.yml cannot declare.
    const values: Readonly<Record<string, readonly string[]>> = { 'input/mode': DIRECTORY_MODES, 'output/mode': DIRECTORY_RUN_MODES };
    const items = actionItems(directoryActionYml(), DIRECTORY_ACTION_REPOSITORY).map((entry) =>
      values[entry.id] ? item(entry.id, entry.kind, { ...entry.facts, choices: sortedList(values[entry.id]) }) : entry,
    );
    return report('directory-action', items);
  },
};
