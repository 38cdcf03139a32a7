/**
 * The PDF fonts as URLs of this app's own origin: Vite copies each file from its npm package into
 * the build's assets. DejaVu is precached with the app; the Noto fonts (megabytes each) are not,
 * and `fetchFont` keeps them in a cache of their own once fetched, so an export needs the network
 * only the first time it meets Chinese, Japanese, Korean or emoji (docs/web.md, "Export").
 * Imported by the export worker only, never by a page's first load.
 */
import dejaVuSans from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url';
import dejaVuSansBold from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf?url';
import dejaVuSansBoldOblique from 'dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf?url';
import dejaVuSansOblique from 'dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf?url';
import dejaVuSerif from 'dejavu-fonts-ttf/ttf/DejaVuSerif.ttf?url';
import dejaVuSerifBold from 'dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf?url';
import dejaVuSerifBoldItalic from 'dejavu-fonts-ttf/ttf/DejaVuSerif-BoldItalic.ttf?url';
import dejaVuSerifItalic from 'dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf?url';
import notoEmojiBold from '@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf?url';
import notoEmoji from '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf?url';
import notoSansJPBold from '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf?url';
import notoSansJP from '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf?url';
import notoSansKRBold from '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf?url';
import notoSansKR from '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf?url';
import notoSansSCBold from '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf?url';
import notoSansSC from '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf?url';
import { type FontFace, ON_NEED_FACES } from './formats/pdf/font-files';

const FONT_URLS: Record<FontFace, string> = {
  DejaVuSerif: dejaVuSerif,
  'DejaVuSerif-Italic': dejaVuSerifItalic,
  'DejaVuSerif-Bold': dejaVuSerifBold,
  'DejaVuSerif-BoldItalic': dejaVuSerifBoldItalic,
  DejaVuSans: dejaVuSans,
  'DejaVuSans-Oblique': dejaVuSansOblique,
  'DejaVuSans-Bold': dejaVuSansBold,
  'DejaVuSans-BoldOblique': dejaVuSansBoldOblique,
  'NotoSansSC-Regular': notoSansSC,
  'NotoSansSC-Bold': notoSansSCBold,
  'NotoSansJP-Regular': notoSansJP,
  'NotoSansJP-Bold': notoSansJPBold,
  'NotoSansKR-Regular': notoSansKR,
  'NotoSansKR-Bold': notoSansKRBold,
  'NotoEmoji-Regular': notoEmoji,
  'NotoEmoji-Bold': notoEmojiBold,
};

/** The cache the fonts fetched on need stay in (the service worker's precache holds DejaVu). */
const ON_NEED_CACHE = 'chronicler-export-fonts';

async function openCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(ON_NEED_CACHE);
  } catch {
    // Storage refused (private mode): the font is fetched each time instead.
    return null;
  }
}

export async function fetchFont(face: FontFace): Promise<Uint8Array> {
  const url = FONT_URLS[face];
  const cache = ON_NEED_FACES[face] === undefined ? null : await openCache();
  const cached = await cache?.match(url);
  if (cached) return new Uint8Array(await cached.arrayBuffer());
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Font ${face} could not be loaded (HTTP ${response.status})`);
  if (cache) await cache.put(url, response.clone()).catch(() => {});
  return new Uint8Array(await response.arrayBuffer());
}
