/**
 * The continuity checks' sample series (docs/decisions/0017-canon-changes.md): one deliberately
 * broken, whose exact findings the tests assert, and one clean, full of the traps that make
 * checkers cry wolf, which must give none.
 */
import { type CanonSeriesBuilder, canonSeries } from './canon-series.ts';

/**
 * Mara dies in “The Siege” and is back in Book Two; Tomas goes missing and is named later; Ilse's
 * allegiance is two things at once; Vell is destroyed twice; Ilse's death lost its chapter (so it
 * applies nowhere: she is named later without a finding about it).
 */
export function brokenSeries(): CanonSeriesBuilder {
  const s = canonSeries();
  const one = s.book('The Salt Road');
  const two = s.book('The Glass Crown');
  s.chapter(one, 'Arrival', 'Mara and Ilse reach Vell.\nTomas waits at the gate.');
  const siege = s.chapter(one, 'The Siege', 'Mara falls on the wall.\nIlse screams her name: Mara!');
  const aftermath = s.chapter(one, 'Aftermath', 'Ilse buries her sister.\nNobody has seen Tomas since the fire.');
  const ret = s.chapter(two, 'Return', 'The hall is cold.\nMara smiles at Ilse across the table. Later, Mara laughs.');
  const council = s.chapter(two, 'Council', 'Tomas argues with the council until dawn.');
  const cut = s.chapter(two, 'A scene cut', 'Ilse dies here, in a draft.', { deletedAt: '2026-02-01T00:00:00.000Z' });
  const mara = s.character('Mara', { aliases: ['The Grey Lady'] });
  const ilse = s.character('Ilse');
  const tomas = s.character('Tomas');
  const dies = s.event('Mara dies', siege, [mara]);
  s.event('The feast', council, [mara, ilse]);
  s.event('Tomas is seen in the market', ret, [tomas]);
  s.change(mara, 'character', 'status', 'deceased', siege, { timelineEventId: dies.id });
  s.change(tomas, 'character', 'status', 'missing', aftermath);
  const vell = s.location('Vell');
  s.change(ilse, 'character', 'affiliation', 'The Salt Guild', ret);
  s.change(ilse, 'character', 'affiliation', 'The Crown', ret);
  s.change(vell, 'location', 'state', 'destroyed', aftermath);
  s.change(vell, 'location', 'state', 'destroyed', council);
  s.change(ilse, 'character', 'status', 'deceased', cut);
  return s;
}

/**
 * Deaths, disappearances and names everywhere, and nothing wrong: the death chapter itself, a
 * flashback chapter and event, a character found again, a name inside a longer word, a lowercase
 * "will" and an excluded "Will", a name two characters share.
 */
export function cleanSeries(): { series: CanonSeriesBuilder; excludedWords: string[] } {
  const s = canonSeries();
  const one = s.book('The Salt Road');
  const two = s.book('The Glass Crown');
  s.chapter(one, 'Arrival', 'Mara, Will, Ash and Ilse reach Vell.\nTomas waits at the gate.');
  const siege = s.chapter(one, 'The Siege', 'Mara falls on the wall. Will falls beside her.\nAsh burns. Tomas is gone.');
  s.chapter(one, 'What the river took', 'Mara laughs in the old days; Will sings.', { flashback: true });
  const ret = s.chapter(two, 'Return', 'Tomas walks back into Vell.\nIlse runs the marathon alone. Marathons tire her.\nI will go, she says. Will you come? Nobody will stop her.');
  const council = s.chapter(two, 'Council', 'Ash lights the fire in the council hall.\nTomas argues until dawn. Ilse listens.');
  const mara = s.character('Mara');
  const will = s.character('Will');
  const ash = s.character('Ash');
  s.character('Ashlan Reed', { aliases: ['Ash'] });
  s.character('Ilse');
  const tomas = s.character('Tomas');
  const dies = s.event('Mara dies', siege, [mara, will]);
  s.event('The old war', council, [mara], { flashback: true });
  s.event('Tomas returns', ret, [tomas]);
  s.change(mara, 'character', 'status', 'deceased', siege, { timelineEventId: dies.id });
  s.change(will, 'character', 'status', 'deceased', siege);
  s.change(ash, 'character', 'status', 'deceased', siege);
  s.change(tomas, 'character', 'status', 'missing', siege);
  s.change(tomas, 'character', 'status', 'alive', ret);
  return { series: s, excludedWords: ['Will'] };
}
