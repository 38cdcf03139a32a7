import classes from '../auth.module.css';

const EMOJI = [
  { char: '📚', top: '8%', left: '6%', delay: '0s', size: 34 },
  { char: '✒️', top: '18%', left: '88%', delay: '1.2s', size: 30 },
  { char: '🐉', top: '72%', left: '5%', delay: '2.1s', size: 36 },
  { char: '🏰', top: '84%', left: '82%', delay: '0.6s', size: 32 },
  { char: '✨', top: '44%', left: '93%', delay: '1.8s', size: 24 },
  { char: '📜', top: '52%', left: '2%', delay: '2.7s', size: 28 },
  { char: '🔮', top: '4%', left: '60%', delay: '3.2s', size: 26 },
  { char: '🗺️', top: '92%', left: '40%', delay: '1.5s', size: 28 },
];

/** Floating emoji decoration of the auth page (purely decorative). */
export function FloatingEmoji() {
  return (
    <div className={classes.emojiLayer} aria-hidden="true">
      {EMOJI.map((e) => (
        <span
          key={e.char}
          className={classes.emoji}
          style={{ top: e.top, left: e.left, animationDelay: e.delay, fontSize: e.size }}
        >
          {e.char}
        </span>
      ))}
    </div>
  );
}
