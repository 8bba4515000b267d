// The app itself: found, or created (version 1 only), then its general codes set.
import { MakeError, type CreateSDKAppBody, type JSONValue } from '@makehq/sdk';
import type { GeneralCode } from '../../manifest.ts';
import type { Deploy, Step } from '../step.ts';

export const ensureApp = (create: CreateSDKAppBody, { mustCreate = false } = {}): Step => ({
  title: `app ${create.name}${mustCreate ? ' (new)' : ''}`,
  async run(deploy) {
    const { make, app } = deploy;
    try {
      await make.sdk.apps.get(app.name, app.version);
      // A new app that exists may have scenarios on it: the breaking change would reach them.
      if (mustCreate) throw new Error(`app ${app.name} already exists in Make; --new-app needs a name no app has yet, so that no scenario uses it`);
      return { action: 'found', title: `app ${app.name} v${app.version}` };
    } catch (error) {
      if (!(error instanceof MakeError) || error.statusCode !== 404) throw error;
    }
    if (app.version !== 1) {
      throw new Error(
        `app ${app.name} has no version ${app.version} in Make (HTTP 404); make:deploy creates only version 1 of a new app: create version ${app.version} in Make first, or set MAKE_APP_VERSION=1`,
      );
    }
    const created = await make.sdk.apps.create(create);
    deploy.appCreated = true;
    return { action: 'created', title: `app ${created.name} v${created.version}` };
  },
});

const setGeneral: Record<GeneralCode, (deploy: Deploy, text: string) => Promise<unknown>> = {
  base: ({ make, app }, text) => make.sdk.apps.setSection(app.name, app.version, 'base', text),
  groups: ({ make, app }, text) => make.sdk.apps.setSection(app.name, app.version, 'groups', text),
  // Make's editor and the SDK send `common` as a JSON object, not as the file's text.
  common: ({ make, app }, text) => make.sdk.apps.setCommon(app.name, app.version, JSON.parse(text) as Record<string, JSONValue>),
  readme: ({ make, app }, text) => make.sdk.apps.setDocs(app.name, app.version, text),
};

export const generalCodeStep = (code: GeneralCode, path: string, text: string): Step => ({
  title: `app ${code} ← ${path}`,
  run: async (deploy) => {
    await setGeneral[code](deploy, text);
    return { action: 'set' };
  },
});
