/**
 * Export formats and which plan level opens each (000 §9: basic = "PDF and TXT", advanced =
 * "PDF, DOCX and TXT", premium = "All Formats"). The web app locks formats from this table and
 * the Subscriptions page words the levels from plans.ts EXPORT_LABELS.
 */
import { type ExportLevel, PLAN_LIST, type PlanName, PLANS } from './plans.ts';

/** Every format, in menu order. The series bible is a separate export (BIBLE_FORMATS). */
export const EXPORT_FORMATS = ['pdf', 'txt', 'docx', 'epub', 'markdown'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const BIBLE_FORMATS = ['pdf', 'markdown'] as const satisfies readonly ExportFormat[];
export type BibleFormat = (typeof BIBLE_FORMATS)[number];

export const EXPORT_FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = {
  pdf: 'PDF',
  txt: 'Plain text (TXT)',
  docx: 'Word (DOCX)',
  epub: 'EPUB 3',
  markdown: 'Markdown',
};

export const EXPORT_FORMAT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = {
  pdf: 'pdf',
  txt: 'txt',
  docx: 'docx',
  epub: 'epub',
  markdown: 'md',
};

export const EXPORT_FORMAT_MIME: Readonly<Record<ExportFormat, string>> = {
  pdf: 'application/pdf',
  txt: 'text/plain;charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  epub: 'application/epub+zip',
  markdown: 'text/markdown;charset=utf-8',
};

/** The lowest export level that includes the format. */
export const EXPORT_FORMAT_LEVEL: Readonly<Record<ExportFormat, ExportLevel>> = {
  pdf: 'basic',
  txt: 'basic',
  docx: 'advanced',
  epub: 'premium',
  markdown: 'premium',
};

const LEVEL_ORDER: readonly ExportLevel[] = ['basic', 'advanced', 'premium'];

export function exportLevelIncludes(level: ExportLevel, format: ExportFormat): boolean {
  return LEVEL_ORDER.indexOf(level) >= LEVEL_ORDER.indexOf(EXPORT_FORMAT_LEVEL[format]);
}

export function canExport(plan: PlanName, format: ExportFormat): boolean {
  return exportLevelIncludes(PLANS[plan].limits.export, format);
}

/** The lowest plan whose export level includes the format (for the feature gate's message). */
export function planForExportFormat(format: ExportFormat): PlanName {
  return (PLAN_LIST.find((p) => exportLevelIncludes(p.limits.export, format)) ?? PLAN_LIST[PLAN_LIST.length - 1]!).name;
}

// ---------------------------------------------------------------------------------------------
// Export profiles (saved per series on the device)

export const EXPORT_FONTS = ['serif', 'sans'] as const;
export type ExportFont = (typeof EXPORT_FONTS)[number];
export const EXPORT_SPACINGS = ['single', 'oneAndHalf', 'double'] as const;
export type ExportSpacing = (typeof EXPORT_SPACINGS)[number];

export interface ExportProfile {
  font: ExportFont;
  spacing: ExportSpacing;
  /** Written where the text has a scene break; empty means the default of each format. */
  sceneBreak: string;
  /** Books to include, by id; null means every book of the series. */
  bookIds: string[] | null;
  format: ExportFormat;
}

/** Standard manuscript format: serif, double-spaced, a centred # at scene breaks. */
export const DEFAULT_EXPORT_PROFILE: ExportProfile = { font: 'serif', spacing: 'double', sceneBreak: '#', bookIds: null, format: 'pdf' };

/** Line height as a multiple of the font size. */
export const SPACING_FACTOR: Readonly<Record<ExportSpacing, number>> = { single: 1.15, oneAndHalf: 1.5, double: 2 };
