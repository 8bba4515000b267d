import { actionItems } from '../action-metadata.ts';
import { report } from '../item-list.ts';
import type { SurfaceExtractor } from '../model.ts';

/** The incident Action (`pagerly/incident-action`): its action.yml as `npm run build` writes it, made in memory from the operations. */
export const extractor: SurfaceExtractor = {
  surface: 'incident-action',
  async extract() {
    const [{ actionYml }, { ACTION_REPOSITORY }, { operations }] = await Promise.all([
      import('../../../github-action/generator/generate.ts'),
      import('../../../github-action/names.ts'),
      import('../../../shared/operations/index.ts'),
    ]);
    return report('incident-action', actionItems(actionYml({ operations }), ACTION_REPOSITORY));
  },
};
