/** A package users install from npm: a built folder under dist/ with its own package.json. */
export interface NpmPackage {
  readonly name: string;
  readonly dir: string;
  /** Builds it into `dir`; returns the line `npm run build` prints. */
  build(): Promise<string>;
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
