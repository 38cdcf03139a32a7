export * from './counting.ts';
export * from './day.ts';
export * from './streak.ts';
export * from './achievements.ts';
export * from './wire.ts';
export * from './aggregate.ts';
export * from './mark.ts';
export * from './analytics.ts';
