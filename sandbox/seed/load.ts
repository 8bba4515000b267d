import { readFileSync } from 'node:fs';
import { describeProblems, check } from '../../shared/validation.ts';
import { seedSchema, type ValidSeed } from './schema.ts';

/** A seed that does not describe a consistent world; the message names every bad field. */
export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

export function parseSeed(value: unknown, source = 'the seed'): ValidSeed {
  const result = check(seedSchema, value);
  if (!result.ok) throw new SeedError(`${source} is not a valid sandbox seed: ${describeProblems(result.problems)}`);
  return result.value;
}

/** Synchronous so the demo seed (and the demo keys) exist as soon as the module is imported. */
export function readSeedFile(path: string | URL): ValidSeed {
  const source = String(path instanceof URL ? path.pathname : path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SeedError(`Cannot read the seed file ${source}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`The seed file ${source} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(value, `The seed file ${source}`);
}
