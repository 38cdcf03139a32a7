// The prose libraries ship no types; these are the parts we call.
declare module 'write-good' {
  interface WriteGoodSuggestion {
    index: number;
    offset: number;
    reason: string;
  }
  type Checks = Partial<Record<'weasel' | 'illusion' | 'so' | 'thereIs' | 'passive' | 'adverb' | 'tooWordy' | 'cliches' | 'eprime', boolean>>;
  export default function writeGood(text: string, checks?: Checks): WriteGoodSuggestion[];
}

declare module 'text-readability' {
  interface Readability {
    fleschReadingEase(text: string): number;
    fleschKincaidGrade(text: string): number;
    syllableCount(text: string): number;
  }
  const readability: Readability;
  export default readability;
}
