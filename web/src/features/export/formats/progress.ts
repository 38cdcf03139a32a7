/** Reports how far an export has gone, from 0 to 1. */
export type Progress = (fraction: number) => void;
