import { InvalidError, PreconditionFailedError } from '@app/common';

export interface FontFaceFile {
  weight: number;
  storageKey: string;
}

/** A font family name as CSS takes it: 1 to 50 letters, digits, spaces, `-` and `_` (nothing that ends a CSS string). */
export const FONT_FAMILY = /^[\p{L}\p{N} _-]{1,50}$/u;

export function assertFontFamily(value: unknown): string {
  if (typeof value !== 'string' || !FONT_FAMILY.test(value) || !value.trim()) {
    throw new InvalidError('fontFamily: 1 to 50 letters, digits, spaces, "-" or "_"');
  }
  return value.trim();
}

function assertWeight(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1000) throw new InvalidError('fontFaces[].weight: a whole number from 1 to 1000');
  return value;
}

function faceList(value: unknown): Array<{ weight: number; storageKey: unknown }> {
  if (!Array.isArray(value) || value.length > 20) throw new InvalidError('fontFaces: an array of at most 20 {weight, storageKey}');
  const seen = new Set<number>();
  return value.map((face) => {
    if (!face || typeof face !== 'object') throw new InvalidError('fontFaces[]: {weight, storageKey}');
    const weight = assertWeight((face as Record<string, unknown>).weight);
    if (seen.has(weight)) throw new InvalidError(`fontFaces: weight ${weight} is given twice`);
    seen.add(weight);
    return { weight, storageKey: (face as Record<string, unknown>).storageKey };
  });
}

function storageKeyOf(value: unknown): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > 512) throw new InvalidError('fontFaces[].storageKey: the key generateStorageUploadURL answered');
  return value;
}

/** A new font's faces: each weight once, a regular (400) one among them (412 otherwise, as GitBook answers). */
export function newFontFaces(value: unknown): FontFaceFile[] {
  const faces = faceList(value).map((face) => ({ weight: face.weight, storageKey: storageKeyOf(face.storageKey) }));
  return withRegular(faces);
}

/** Faces after an update: a key replaces that weight's file, null removes the weight; the regular weight must remain. */
export function updatedFontFaces(current: FontFaceFile[], value: unknown): FontFaceFile[] {
  const byWeight = new Map(current.map((face) => [face.weight, face]));
  for (const face of faceList(value)) {
    if (face.storageKey === null) byWeight.delete(face.weight);
    else byWeight.set(face.weight, { weight: face.weight, storageKey: storageKeyOf(face.storageKey) });
  }
  return withRegular([...byWeight.values()]);
}

function withRegular(faces: FontFaceFile[]): FontFaceFile[] {
  if (!faces.some((face) => face.weight === 400)) throw new PreconditionFailedError('fontFaces: a custom font needs a regular face (weight 400)');
  return faces.sort((a, b) => a.weight - b.weight);
}
