/**
 * The words of a neutral operation id (`createIncident` → create, incident), for the naming
 * conventions each surface applies to an operation that has no entry in its name map yet.
 */
export const idWords = (id: string): string[] => id.split(/(?=[A-Z])/).map((word) => word.toLowerCase());

/** `createIncident` → `create_incident`. */
export const snakeCase = (id: string) => idWords(id).join('_');

/** `createIncident` → `Create Incident`. */
export const titleWords = (id: string) =>
  idWords(id)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');

/** `createIncident` → `Create incident`. */
export const sentenceWords = (id: string) => {
  const text = idWords(id).join(' ');
  return text[0]!.toUpperCase() + text.slice(1);
};
