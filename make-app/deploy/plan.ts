// From the app folder to the deploy's steps, in Make's deploy order: the app and its general
// codes, then connections, RPCs, webhooks, modules (references must exist first), each created
// or updated, then its code files set as they are. Reads the folder; sends nothing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateSDKAppBody } from '@makehq/sdk';
import { MANIFEST, readManifest, type CodeKey, type IdMapping } from '../manifest.ts';
import { ensureApp, generalCodeStep } from './components/app.ts';
import { connectionKind } from './components/connection.ts';
import { moduleKind } from './components/module.ts';
import { rpcKind } from './components/rpc.ts';
import { webhookKind } from './components/webhook.ts';
import { remoteOf } from './origin.ts';
import type { ComponentKind, Step } from './step.ts';

/** The folder cannot be deployed: nothing was sent. */
export class AppFolderError extends Error {}

export interface Plan {
  steps: Step[];
  /** Components idMapping deliberately leaves unpaired (`"remote": null`), as Make's editor does. */
  skipped: string[];
}

const KINDS: readonly ComponentKind[] = [connectionKind, rpcKind, webhookKind, moduleKind] as ComponentKind[];

/** `mustCreate`: the app is to be a new one (`--new-app`), so finding it in Make stops the deploy. */
export function planDeploy(appDir: string, create: CreateSDKAppBody, mapping: IdMapping, { mustCreate = false } = {}): Plan {
  if (!existsSync(join(appDir, MANIFEST))) {
    throw new AppFolderError(`${join(appDir, MANIFEST)} does not exist. Run \`npm run build\` first to generate the Make app (or pass --app-dir <folder>).`);
  }
  const manifest = readManifest(appDir);
  const read = (path: string) => readFileSync(join(appDir, path), 'utf8');
  const steps: Step[] = [ensureApp(create, { mustCreate })];
  for (const code of ['base', 'groups', 'common', 'readme'] as const) {
    const path = manifest.generalCodeFiles[code];
    if (path) steps.push(generalCodeStep(code, path, read(path)));
  }
  const skipped: string[] = [];
  for (const kind of KINDS) {
    for (const [id, meta] of Object.entries(manifest.components[kind.type])) {
      if (!meta) continue; // a reserved id, not implemented yet
      const remote = remoteOf(mapping, kind.type, id);
      if (remote === null) {
        skipped.push(`${kind.type} ${id} (its idMapping entry has "remote": null)`);
        continue;
      }
      const codes = Object.entries(meta.codeFiles).filter((entry): entry is [CodeKey, string] => typeof entry[1] === 'string');
      const unknown = codes.filter(([key]) => !(key in kind.sections));
      if (unknown.length > 0) throw new AppFolderError(`${kind.type} ${id}: make:deploy does not deploy codeFiles.${unknown[0]![0]}; set it to null.`);
      steps.push({ title: `${kind.label} ${id}${remote && remote !== id ? ` → ${remote}` : ''}`, run: kind.ensure(id, meta) });
      for (const [key, section] of Object.entries(kind.sections) as [CodeKey, string][]) {
        const path = meta.codeFiles[key];
        if (!path) continue;
        const text = read(path);
        steps.push({
          title: `${kind.label} ${id} ${section} ← ${path}`,
          run: async (deploy) => {
            await kind.setSection(deploy, id, section, text);
            return { action: 'set' };
          },
        });
      }
    }
  }
  return { steps, skipped };
}
