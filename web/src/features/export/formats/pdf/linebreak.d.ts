/** The `linebreak` package (UAX #14 line breaking) ships no types; the part the PDF export uses. */
declare module 'linebreak' {
  export class LineBreaker {
    constructor(text: string);
    nextBreak(): { position: number; required: boolean } | null;
  }
}
