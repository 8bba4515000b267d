import type { Rotation } from './records.ts';

/**
 * Who a rotation puts on call at `at`: participants take turns in order, one shift each,
 * counting from the rotation's start; nobody before it starts or when it has no participants.
 */
export function onCallInRotation(rotation: Rotation, at: Date): string | undefined {
  const elapsed = at.getTime() - rotation.start.getTime();
  const count = rotation.participants.length;
  if (elapsed < 0 || count === 0) return undefined;
  return rotation.participants[Math.floor(elapsed / rotation.shiftMs) % count];
}

/** Every person the rotations put on call, each once, in rotation order (layers first to last). */
export function onCallInRotations(rotations: Iterable<Rotation>, at: Date): string[] {
  const personIds = new Set<string>();
  for (const rotation of rotations) {
    const personId = onCallInRotation(rotation, at);
    if (personId) personIds.add(personId);
  }
  return [...personIds];
}
