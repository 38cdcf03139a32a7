/**
 * Pictures against the plan table (docs/decisions/0022-pictures-on-the-server.md): the series
 * owner's plan governs, as for every limit inside a series. Uploads need `multimedia`; the
 * allowance is `cloudStorageGb` (GB of 2^30 bytes) over every picture the owner's series keep,
 * each picture counted once however many of those series use it; one picture may be at most
 * `pictureMb` (MB of 2^20 bytes).
 */
import { type PlanName, PLANS, PLAN_NAMES } from '../plans.ts';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

export function pictureAllowanceBytes(plan: PlanName): number {
  return PLANS[plan].limits.cloudStorageGb * GB;
}

export function pictureMaxBytes(plan: PlanName): number {
  return PLANS[plan].limits.pictureMb * MB;
}

/** The largest picture any plan takes: the route's body limit before the plan is known. */
export const LARGEST_PICTURE_BYTES = Math.max(...PLAN_NAMES.map(pictureMaxBytes));

/** What the account page shows (GET /api/media/usage). */
export interface MediaUsage {
  usedBytes: number;
  allowanceBytes: number;
  perPictureBytes: number;
}

/** The answer to an upload (and its idempotent repeat). */
export interface StoredPicture {
  sha256: string;
  type: string;
  bytes: number;
  width: number;
  height: number;
}

/** "1.5 MB", "300 KB", "2 GB": sizes in messages, in the units the plan table uses. */
export function formatBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [GB, 'GB'],
    [MB, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${value >= 10 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

/** Fits the allowance: what the owner's series keep plus the new picture. */
export function fitsAllowance(plan: PlanName, usedBytes: number, newBytes: number): boolean {
  return usedBytes + newBytes <= pictureAllowanceBytes(plan);
}
