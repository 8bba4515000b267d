/**
 * What a run does, as the `mode` output says it: workflows branch on these values, so the
 * Action's interface report lists them.
 */
export const DIRECTORY_RUN_MODES = ['plan', 'apply'] as const;
export type DirectoryRunMode = (typeof DIRECTORY_RUN_MODES)[number];

/**
 * The values the `mode` input takes: `auto` picks plan or apply from the event. A workflow
 * names one, so the list is contract (the Action's interface report lists it); action.yml
 * cannot say it, the runtime refuses any other.
 */
export const DIRECTORY_MODES = ['auto', ...DIRECTORY_RUN_MODES] as const;
