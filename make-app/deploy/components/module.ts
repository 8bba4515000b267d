import type { SDKModuleSectionType } from '@makehq/sdk';
import type { ModuleType } from '../../manifest.ts';
import { connectionsOf, remoteName, type ComponentKind } from '../step.ts';

/** moduleType → the API's typeId (Make's VS Code editor, services/module-types-naming.ts). */
const TYPE_IDS: Record<ModuleType, number> = { trigger: 1, action: 4, search: 9, instant_trigger: 10, responder: 11, universal: 12 };

export const moduleKind: ComponentKind<SDKModuleSectionType> = {
  type: 'module',
  label: 'module',
  sections: {
    communication: 'api',
    staticParams: 'parameters',
    mappableParams: 'expect',
    interface: 'interface',
    samples: 'samples',
    epoch: 'epoch',
    scope: 'scope',
  },
  ensure: (id, meta) => async (deploy) => {
    const { make, app, remote } = deploy;
    if (!deploy.appCreated) remote.modules ??= new Map((await make.sdk.modules.list(app.name, app.version)).map((module) => [module.name, module.typeId]));
    const typeId = TYPE_IDS[meta.moduleType ?? 'action'];
    const existing = remote.modules?.get(id);
    if (existing !== undefined && existing !== typeId) {
      throw new Error(
        `module ${id} exists in Make with typeId ${existing}, but makecomapp.json says ${meta.moduleType} (typeId ${typeId}); a module's type cannot be changed: delete or rename it in Make first`,
      );
    }
    // `connection` (on create), `webhook`, `crud` and `subtype` travel with the SDK's calls although
    // its body types lack them (Make's editor sends them: create-remote-component.ts, deploy-metadata.ts).
    const body = {
      label: meta.label ?? id,
      description: meta.description ?? meta.label ?? id,
      ...connectionsOf(deploy, meta),
      ...(meta.webhook ? { webhook: remoteName(deploy, 'webhook', meta.webhook) } : {}),
    };
    if (existing !== undefined) await make.sdk.modules.update(app.name, app.version, id, body);
    else {
      await make.sdk.modules.create(app.name, app.version, {
        name: id,
        typeId,
        moduleInitMode: 'blank',
        ...body,
        ...(meta.actionCrud ? { crud: meta.actionCrud } : {}),
        // Picks the server-side template of a universal module; the editor always sends it.
        ...(meta.moduleType === 'universal' ? { subtype: 'Universal' } : {}),
      });
    }
    deploy.remember('module', id, id);
    return { action: existing === undefined ? 'created' : 'updated' };
  },
  setSection: ({ make, app }, id, section, text) => make.sdk.modules.setSection(app.name, app.version, id, section, text),
};
