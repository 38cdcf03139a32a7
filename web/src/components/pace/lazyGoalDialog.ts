import { lazy } from 'react';

/** The goal form (inputs, a modal), downloaded when a goal is first edited. */
export const LazyBookGoalDialog = lazy(() => import('./BookGoalDialog'));
