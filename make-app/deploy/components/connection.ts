import type { JSONValue, SDKConnectionSectionType } from '@makehq/sdk';
import { ensureNamed, remoteName, type ComponentKind } from '../step.ts';

export const connectionKind: ComponentKind<SDKConnectionSectionType | 'common'> = {
  type: 'connection',
  label: 'connection',
  sections: {
    communication: 'api',
    params: 'parameters',
    common: 'common',
    scopeList: 'scopes',
    defaultScope: 'scope',
    installSpec: 'installSpec',
    installDirectives: 'install',
  },
  ensure: (id, meta) => (deploy) =>
    ensureNamed(deploy, 'connection', id, () =>
      deploy.make.sdk.connections.create(deploy.app.name, { type: meta.connectionType ?? 'basic', label: meta.label ?? id }),
    ),
  setSection(deploy, id, section, text) {
    const remote = remoteName(deploy, 'connection', id);
    const { connections } = deploy.make.sdk;
    return section === 'common' ? connections.setCommon(remote, JSON.parse(text) as Record<string, JSONValue>) : connections.setSection(remote, section, text);
  },
};
