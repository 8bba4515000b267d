import { readOpsgenie } from './opsgenie.ts';
import type { Reader } from './reader.ts';
import type { SourceId } from './sources.ts';

/** Each source's reader. */
export const READERS: Readonly<Record<SourceId, Reader>> = {
  opsgenie: readOpsgenie,
};
