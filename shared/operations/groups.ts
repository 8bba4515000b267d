/**
 * The headings the apps list operations under (Make's module groups), named once so that a
 * misspelt group cannot quietly become a new heading. Their order in an app is the order of
 * the operations (shared/operations/index.ts).
 */
export const GROUPS = { onCall: 'On call', incidents: 'Incidents', directory: 'Directory' } as const;
