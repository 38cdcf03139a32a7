/**
 * The font files PDF exports may embed, by face, as paths inside their npm packages. The export
 * worker turns them into URLs of this app's own origin (Vite assets); tests read them from disk.
 * Which face prints which character: fonts.ts, and docs/web.md ("Export").
 *
 * - DejaVu Serif and Sans in four faces each (regular, italic, bold, bold italic): Latin with every
 *   accent, Greek, Cyrillic, and (Sans) Arabic and Hebrew. Bundled: precached with the app.
 * - Noto Sans SC, JP and KR (regular and bold): Chinese, Japanese, Korean. Several megabytes each,
 *   so fetched the first time an export needs them and kept in a cache for offline use.
 * - Noto Emoji (regular and bold): monochrome emoji outlines, fetched on need the same way.
 */
export const FONT_FILES = {
  DejaVuSerif: 'dejavu-fonts-ttf/ttf/DejaVuSerif.ttf',
  'DejaVuSerif-Italic': 'dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf',
  'DejaVuSerif-Bold': 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf',
  'DejaVuSerif-BoldItalic': 'dejavu-fonts-ttf/ttf/DejaVuSerif-BoldItalic.ttf',
  DejaVuSans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  'DejaVuSans-Oblique': 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf',
  'DejaVuSans-Bold': 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  'DejaVuSans-BoldOblique': 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf',
  'NotoSansSC-Regular': '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  'NotoSansSC-Bold': '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  'NotoSansJP-Regular': '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  'NotoSansJP-Bold': '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
  'NotoSansKR-Regular': '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  'NotoSansKR-Bold': '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
  'NotoEmoji-Regular': '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf',
  'NotoEmoji-Bold': '@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf',
} as const;

export type FontFace = keyof typeof FONT_FILES;

/** What a reader calls the script a face is fetched for (in the message when it cannot be fetched). */
export const ON_NEED_FACES: Partial<Record<FontFace, string>> = {
  'NotoSansSC-Regular': 'Chinese',
  'NotoSansSC-Bold': 'Chinese (bold)',
  'NotoSansJP-Regular': 'Japanese',
  'NotoSansJP-Bold': 'Japanese (bold)',
  'NotoSansKR-Regular': 'Korean',
  'NotoSansKR-Bold': 'Korean (bold)',
  'NotoEmoji-Regular': 'emoji',
  'NotoEmoji-Bold': 'emoji (bold)',
};

/** Loads a face's bytes (fetched in the browser, read from disk in tests). */
export type FontSource = (face: FontFace) => Promise<Uint8Array>;
