import type { SDKRPCSectionType } from '@makehq/sdk';
import { connectionsOf, type ComponentKind } from '../step.ts';

export const rpcKind: ComponentKind<SDKRPCSectionType> = {
  type: 'rpc',
  label: 'RPC',
  sections: { communication: 'api', params: 'parameters' },
  ensure: (id, meta) => async (deploy) => {
    const { make, app, remote } = deploy;
    if (!deploy.appCreated) remote.rpcs ??= new Set((await make.sdk.rpcs.list(app.name, app.version)).map((rpc) => rpc.name));
    const body = { label: meta.label ?? id, ...connectionsOf(deploy, meta) };
    const exists = remote.rpcs?.has(id) ?? false;
    // On create, `connection` travels with the SDK's call although its body type lacks it (Make's editor sends it).
    if (exists) await make.sdk.rpcs.update(app.name, app.version, id, body);
    else await make.sdk.rpcs.create(app.name, app.version, { name: id, ...body });
    deploy.remember('rpc', id, id);
    return { action: exists ? 'updated' : 'created' };
  },
  setSection: ({ make, app }, id, section, text) => make.sdk.rpcs.setSection(app.name, app.version, id, section, text),
};
