import type { ComponentType } from 'react';
import { IconBooks, IconBuildingCastle, IconFeather, IconMap2, IconScript, IconSparkles, IconSpiral, IconWand } from '@tabler/icons-react';
import classes from '../auth.module.css';

type Glyph = ComponentType<{ size?: number; stroke?: number }>;

/** Each emoji with a drawn stand-in for platforms without colour emoji (the decoration is in the spec, 000 §2). */
const EMOJI: { char: string; Icon: Glyph; top: string; left: string; delay: string; size: number }[] = [
  { char: '📚', Icon: IconBooks, top: '7%', left: '7%', delay: '0s', size: 34 },
  { char: '✒️', Icon: IconFeather, top: '16%', left: '86%', delay: '1.2s', size: 30 },
  { char: '🐉', Icon: IconSpiral, top: '74%', left: '6%', delay: '2.1s', size: 36 },
  { char: '🏰', Icon: IconBuildingCastle, top: '85%', left: '84%', delay: '0.6s', size: 32 },
  { char: '✨', Icon: IconSparkles, top: '46%', left: '92%', delay: '1.8s', size: 24 },
  { char: '📜', Icon: IconScript, top: '50%', left: '3%', delay: '2.7s', size: 28 },
  { char: '🔮', Icon: IconWand, top: '5%', left: '58%', delay: '3.2s', size: 26 },
  { char: '🗺️', Icon: IconMap2, top: '93%', left: '42%', delay: '1.5s', size: 28 },
];

let colorEmoji: boolean | null = null;

/**
 * Whether the platform draws colour emoji. Without an emoji font (some Linux desktops) emoji come
 * out as empty boxes, so drawn icons float instead.
 */
function supportsColorEmoji(): boolean {
  if (colorEmoji !== null) return colorEmoji;
  colorEmoji = true;
  if (typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent)) return colorEmoji;
  try {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 24;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) return colorEmoji;
    ctx.textBaseline = 'top';
    ctx.font = '20px sans-serif';
    ctx.fillText('📚', 0, 0);
    const data = ctx.getImageData(0, 0, 24, 24).data;
    let coloured = false;
    for (let i = 0; i < data.length && !coloured; i += 4) {
      const [r = 0, g = 0, b = 0, a = 0] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 0 && (Math.abs(r - g) > 24 || Math.abs(g - b) > 24 || Math.abs(r - b) > 24)) coloured = true;
    }
    colorEmoji = coloured;
  } catch {
    colorEmoji = false;
  }
  return colorEmoji;
}

/** Floating emoji decoration of the account screens (purely decorative). */
export function FloatingEmoji() {
  const emoji = supportsColorEmoji();
  return (
    <div className={classes.emojiLayer} aria-hidden="true" data-testid="floating-emoji" data-drawn={emoji ? undefined : 'true'}>
      {EMOJI.map(({ char, Icon, top, left, delay, size }) => (
        <span key={char} className={classes.emoji} style={{ top, left, animationDelay: delay, fontSize: size }}>
          {emoji ? char : <Icon size={size} stroke={1.5} />}
        </span>
      ))}
    </div>
  );
}
