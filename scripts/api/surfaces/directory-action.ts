import { actionItems } from '../action-metadata.ts';
import { report } from '../item-list.ts';
import type { SurfaceExtractor } from '../model.ts';

/** The directory-sync Action (`pagerly/directory-sync-action`): its action.yml as `npm run build` writes it, made in memory. */
export const extractor: SurfaceExtractor = {
  surface: 'directory-action',
  async extract() {
    const { directoryActionYml, DIRECTORY_ACTION_REPOSITORY } = await import('../../../github-action/directory/build.ts');
    return report('directory-action', actionItems(directoryActionYml(), DIRECTORY_ACTION_REPOSITORY));
  },
};
