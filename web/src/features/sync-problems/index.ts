/** What the author sees of sync: the indicator, the problems panel, their toasts and warnings. */
export { SyncIndicator, relativeSyncTime } from './SyncIndicator';
export { DeadLetterList, SyncProblemsPanel, exportDeadLetters } from './SyncProblemsPanel';
export { SignOutGuardModal, unsyncedWarning } from './SignOutGuardModal';
export { StorageUnavailable } from './StorageUnavailable';
export { problemToast, toastForProblem } from './problemToast';
export { SyncProgress } from './SyncProgress';
