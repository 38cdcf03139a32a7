// A book's goal and pace (docs/decisions/0018-pace-predictions.md): the summary is light; the goal
// form (inputs, a modal) is loaded when it opens.
export { PaceStatusBadge, PaceSummary } from './PaceSummary';
export { dayLabel, finishCopy, neededCopy, statusCopy, wordsCopy } from './paceCopy';
