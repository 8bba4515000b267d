import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { cliPackageJson } from '../../cli/build-cli-package.ts';
import rootPackage from '../../package.json' with { type: 'json' };

/**
 * The MCP registry's entry for `pagerly mcp` (server.json at the repository root, where the
 * registry's publisher reads it), checked against the registry's own schema (vendored in
 * test/release/vendor/, offline) and against what it must say of this project.
 */
const root = process.cwd();
const schema = JSON.parse(readFileSync(join(root, 'test/release/vendor/server.schema.json'), 'utf8'));
const server = JSON.parse(readFileSync(join(root, 'server.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

describe('server.json', () => {
  it("holds to the MCP registry's server.json schema, which refuses a broken entry", () => {
    expect(server.$schema).toBe(schema.$id);
    expect(validate(server) ? [] : validate.errors).toEqual([]);
    // The check has teeth: a name without its namespace, a floating version, an unknown field.
    const broken = {
      ...server,
      name: 'pagerly',
      packages: [{ ...server.packages[0], version: 'latest', installCommand: 'npx @pagerly/cli mcp' }],
    };
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((error) => error.instancePath)).toEqual(expect.arrayContaining(['/name', '/packages/0/version', '/packages/0']));
  });

  it('runs `npx -y @pagerly/cli mcp` over stdio, the key a required secret', () => {
    const [pkg, ...others] = server.packages;
    expect(others).toEqual([]);
    expect(pkg).toMatchObject({ registryType: 'npm', identifier: '@pagerly/cli', runtimeHint: 'npx', transport: { type: 'stdio' } });
    expect(pkg.packageArguments).toEqual([{ type: 'positional', value: 'mcp' }]);
    const key = pkg.environmentVariables.find((variable: { name: string }) => variable.name === 'PAGERLY_API_KEY');
    expect(key).toMatchObject({ isRequired: true, isSecret: true });
    expect(pkg.environmentVariables.filter((variable: { isSecret?: boolean }) => variable.isSecret).map((v: { name: string }) => v.name)).toEqual([
      'PAGERLY_API_KEY',
    ]);
  });

  it('names the version being released and this repository', () => {
    expect(server.version).toBe(rootPackage.version);
    expect(server.packages[0].version).toBe(rootPackage.version);
    expect(server.repository).toEqual({ url: 'https://github.com/pagerly/pagerly-connectors', source: 'github' });
  });

  it('is named back by the package it points at, as the registry checks before it lists it', () => {
    // https://modelcontextprotocol.io/registry/package-types (npm, Ownership Verification): the
    // package's mcpName MUST match server.json's name, or the publish is refused.
    const pkg = cliPackageJson();
    expect(pkg.name).toBe(server.packages[0].identifier);
    expect(pkg.version).toBe(server.packages[0].version);
    expect(pkg.mcpName).toBe(server.name);
  });
});
