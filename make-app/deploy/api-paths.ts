// The REST paths (under https://<zone>/api/v2) that @makehq/sdk calls for each operation,
// for the plan and the progress lines. Connections and webhooks belong to the app, not to
// one version of it, so their paths carry no version. Names go in as they are, as the SDK
// puts them (app, module and RPC names are checked against Make's patterns; Make names
// connections and webhooks itself).

export const apiPaths = {
  apps: () => '/sdk/apps',
  app: (app: string, version: number) => `/sdk/apps/${app}/${version}`,
  appSection: (app: string, version: number, section: string) => `/sdk/apps/${app}/${version}/${section}`,
  connections: (app: string) => `/sdk/apps/${app}/connections`,
  connectionSection: (connection: string, section: string) => `/sdk/apps/connections/${connection}/${section}`,
  webhooks: (app: string) => `/sdk/apps/${app}/webhooks`,
  webhookSection: (webhook: string, section: string) => `/sdk/apps/webhooks/${webhook}/${section}`,
  rpcs: (app: string, version: number) => `/sdk/apps/${app}/${version}/rpcs`,
  rpc: (app: string, version: number, rpc: string) => `/sdk/apps/${app}/${version}/rpcs/${rpc}`,
  modules: (app: string, version: number) => `/sdk/apps/${app}/${version}/modules`,
  module: (app: string, version: number, module: string) => `/sdk/apps/${app}/${version}/modules/${module}`,
};

export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
}

export const callText = ({ method, path }: ApiCall): string => `${method} ${path}`;
