/**
 * The values the `mode` input takes: `auto` picks plan or apply from the event. A workflow
 * names one, so the list is contract (the Action's interface report lists it); action.yml
 * cannot say it, the runtime refuses any other.
 */
export const DIRECTORY_MODES = ['auto', 'plan', 'apply'] as const;
