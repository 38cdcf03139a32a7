/**
 * The Inspiration Pack (premium product `inspiration-pack`): 100 writing prompts written
 * for series authors, in six kinds. Ids are stable (a prompt keeps its id when the text is edited),
 * so "prompt of the day" and anything an author remembers keep pointing at the same prompt.
 */
export const PROMPT_KINDS = ['plot', 'character', 'setting', 'dialogue', 'conflict', 'world'] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

export const PROMPT_KIND_LABELS: Record<PromptKind, string> = {
  plot: 'Plot',
  character: 'Character',
  setting: 'Setting',
  dialogue: 'Dialogue',
  conflict: 'Conflict',
  world: 'World building',
};

export interface WritingPrompt {
  id: string;
  kind: PromptKind;
  title: string;
  text: string;
}

type Row = [title: string, text: string];

const PLOT: Row[] = [
  ['The wrong letter', 'A letter meant for your antagonist is delivered to your protagonist instead. What does it say, and what does your hero do before anyone notices the mistake?'],
  ['Halfway down', 'Open a chapter in the middle of a climb, a fall or a descent. Reveal only at the end why your character was going down in the first place.'],
  ['The promise kept too well', 'A character keeps a promise made in book one long after it has stopped making sense. Write the day the promise finally costs something real.'],
  ['A door that was always there', 'Something your characters walk past every day turns out to matter. Write the scene where one of them stops and looks at it properly for the first time.'],
  ['Ahead of the rumour', 'News of an event reaches a town before the event has happened. Who started the rumour, and how does your protagonist find out it is true?'],
  ['The cost of winning', 'Your hero wins a battle, an argument or a race — and loses something they did not know they were betting. Write the hour after the victory.'],
  ['Second chance, same mistake', 'Give a character the chance to redo a decision from an earlier book. Let them make the same choice for a new reason.'],
  ['The quiet chapter', 'Write a chapter in which nothing dramatic happens, yet by its end the reader knows the story can never go back to how it was.'],
  ['Inheritance', 'Someone dies and leaves your protagonist an object nobody else wanted. By the end of the scene, three people want it.'],
  ['The map is wrong', 'A map your characters trust leads them somewhere it should not. Was it a mistake, a forgery or a place that moved?'],
  ['Countdown', 'Give your protagonist a deadline measured in something other than time: candles, tides, heartbeats, pages of a book. Write the moment it runs out.'],
  ['The ally who arrives late', 'A friend promised to come and did not. Write the scene from the friend’s side: what held them back, and what they find when they finally arrive.'],
  ['Twin scenes', 'Write a scene that mirrors the opening of your first book — same place, same hour — with everything that has changed since showing through.'],
  ['What the villain wanted', 'Write the moment your antagonist gets exactly what they wanted and discovers it is not enough.'],
  ['The detour', 'An ordinary errand goes wrong in a small way and leads your character to the one person they were trying to avoid.'],
  ['A secret told to the wrong person', 'Your protagonist finally tells someone the truth — and it is the one person who can use it against them.'],
  ['Epilogue first', 'Write the last page of your series now, then ask which single scene in the next book makes that ending inevitable.'],
];

const CHARACTER: Row[] = [
  ['The habit', 'Give a character a small daily habit that reveals who they are. Write a scene where they are forced to break it.'],
  ['What they carry', 'Empty your protagonist’s pockets, bag or saddlebag onto a table. Describe each item and the memory attached to the oldest one.'],
  ['Before the story', 'Write your antagonist’s happiest day, years before the first book begins.'],
  ['The lie they believe', 'Name the lie your hero believes about themselves. Write the scene where someone they respect repeats it back to them.'],
  ['Unsent', 'Write a letter a character wrote and never sent. Then decide who finds it.'],
  ['A stranger’s eyes', 'Describe your protagonist entirely through the eyes of someone who has never met them and does not like what they see.'],
  ['The name they hate', 'Every character has a name they will not answer to. Write the scene where someone uses it.'],
  ['Good at the wrong thing', 'Give a character a talent that is useless where they are — and write the one moment it saves everyone.'],
  ['Fear, small', 'Forget the great fears. Write about something small your bravest character cannot bring themselves to do.'],
  ['The mentor’s mistake', 'Write the day your protagonist realises their mentor was wrong about something important.'],
  ['Kindness with a price', 'A character does something kind for a selfish reason. Let the reader see both at once.'],
  ['Growing older', 'Jump ten years ahead. Which of your character’s opinions has changed, and which have hardened?'],
  ['Side character, centre stage', 'Choose a minor character and write a scene where they are the hero of their own story while your protagonist passes by in the background.'],
  ['The thing they collect', 'What does your character keep that others would throw away? Write how the collection began.'],
  ['Apology', 'Write an apology one character owes another. Make it honest and still not enough.'],
  ['Two faces', 'Show a character behaving one way in public and another in private, in the same chapter, without ever stating the difference.'],
  ['What would they never say', 'List three things your protagonist would never say out loud. Write the scene that makes them say one.'],
];

const SETTING: Row[] = [
  ['At the worst hour', 'Describe a place your readers know well at the hour it is at its worst: the market at closing, the temple at dawn, the harbour in fog.'],
  ['Through the senses, no sight', 'Write a setting through sound, smell and touch only. Your reader should still be able to draw it.'],
  ['The room after', 'Describe a room just after something important happened in it, without saying what it was.'],
  ['Weather as a character', 'Let the weather want something. Write a storm, drought or frost that acts against your characters as if on purpose.'],
  ['A place that remembers', 'Choose a location that appears in more than one book. Show the marks earlier events left on it.'],
  ['The back entrance', 'Every grand place has a servants’ stair, a loading dock or a hole in the wall. Write your setting from there.'],
  ['Home, seen by a guest', 'Describe your protagonist’s home through the eyes of a first-time visitor who notices everything your hero stopped seeing long ago.'],
  ['Borderlands', 'Write the place where two regions, cultures or climates meet. What do the people who live there have that neither side does?'],
  ['Night market', 'Invent a place that only exists for a few hours. What is sold there, and what is forbidden to buy?'],
  ['Ruins', 'Your characters walk through the ruins of something. Let the reader guess what it was before you tell them.'],
  ['The smallest room', 'Set a whole scene in a cramped space — a cell, a carriage, a cupboard — with more people in it than is comfortable.'],
  ['Seasons turning', 'Write the same street in four short paragraphs, one for each season of your story’s year.'],
  ['A map detail', 'Choose one tiny detail on your map and write the place as it really is, up close, on an ordinary afternoon.'],
  ['Sacred ground', 'Describe a place your characters treat as sacred, and the small rules everyone follows there without thinking.'],
  ['Travelling light', 'Write a journey between two locations of your series, paying attention only to what changes along the way.'],
  ['Under the city', 'What lies beneath your main setting? Sewers, catacombs, roots, old foundations — write who uses them now.'],
];

const DIALOGUE: Row[] = [
  ['Say it without saying it', 'Write a conversation between two characters in love, in which neither mentions feelings at all.'],
  ['Only questions', 'Write a tense exchange in which every line of dialogue is a question.'],
  ['Interrupted', 'Two characters are about to say the most important thing — and are interrupted three times. Write all three interruptions.'],
  ['The argument about something else', 'Your characters argue about dinner, a horse or a chore. The reader knows they are really arguing about the thing they cannot mention.'],
  ['Translation', 'A conversation through an interpreter who is quietly softening — or sharpening — every line.'],
  ['Overheard', 'Write a conversation your protagonist overhears and misunderstands completely.'],
  ['The last words', 'Write the last conversation two characters have before a long separation. Neither knows it is the last for years.'],
  ['Negotiation', 'Two characters bargain over something small while the real stakes sit unspoken between them.'],
  ['Teaching', 'One character teaches another a skill. Let the lesson reveal more about the teacher than the skill.'],
  ['A story told at a fire', 'A character tells a legend of your world aloud. Let the listeners’ interruptions show who each of them is.'],
  ['Silence', 'Write a dialogue in which the most important reply is a silence, and make the reader hear it.'],
  ['Rehearsed', 'A character rehearses a speech, then gives it to a person who answers nothing like expected.'],
  ['Three voices', 'Write a scene with three speakers and no dialogue tags after the first line. Each voice must be unmistakable.'],
  ['The confession that isn’t', 'A character confesses to something they did not do, to protect someone. The listener knows.'],
  ['Enemies being polite', 'Two sworn enemies meet at a formal occasion and must be perfectly courteous. Write every barbed compliment.'],
  ['Letters back and forth', 'Tell a scene entirely through an exchange of short notes passed between two characters.'],
  ['Small talk, big stakes', 'Write small talk about the weather between two people who both know one of them is about to betray the other.'],
];

const CONFLICT: Row[] = [
  ['Both are right', 'Write a conflict between two characters in which the reader agrees with each of them in turn.'],
  ['The choice with no good answer', 'Put your protagonist between two people they love who need opposite things today.'],
  ['Inner storm', 'Write a scene where nothing outside your character is wrong, and everything inside is.'],
  ['Rivals forced together', 'Lock two rivals in the same task, with a reason neither can walk away.'],
  ['Rules versus mercy', 'A character who believes in rules faces someone who broke one for a good reason.'],
  ['A friend’s betrayal, slowly', 'Show, across one chapter, the small signs that a friend is drifting to the other side.'],
  ['Outnumbered', 'Your heroes face more opponents than they can beat. Win the scene without winning the fight.'],
  ['The price of silence', 'A character who stays silent about a wrong watches the consequences spread. Write the day they can no longer stay quiet.'],
  ['Family business', 'Set a conflict inside a family: inheritance, duty, a marriage, a trade. Let love make it worse, not better.'],
  ['The enemy’s kindness', 'Your antagonist does your protagonist a genuine kindness. How does that change the fight?'],
  ['Scarcity', 'There is not enough of something — water, food, medicine, places on the ship. Write who decides.'],
  ['Public shame', 'Your hero is humiliated in front of people whose respect they need. Write the walk home.'],
  ['The old wound', 'Two characters reopen an argument from an earlier book. This time, one of them has changed.'],
  ['Duty against desire', 'Give your protagonist an order they must follow and a wish it makes impossible.'],
  ['A race nobody announced', 'Two parties want the same thing and only slowly realise the other is after it too.'],
  ['The trap of good intentions', 'A plan meant to help everyone goes wrong in a way that hurts the one person it was for.'],
];

const WORLD: Row[] = [
  ['A holiday', 'Invent a holiday in your world: what it celebrates, what people eat, and the one custom outsiders find strange.'],
  ['Currency', 'What do people in your world pay with? Write a scene where someone tries to pay in the wrong coin.'],
  ['The law everyone breaks', 'Name a law in your world that almost everyone breaks, and the day it is suddenly enforced.'],
  ['Old songs', 'Write the first verse of a song every child in your world knows. What history is hidden in it?'],
  ['Magic has a cost', 'Whatever power exists in your world, show what it costs the person who uses it, in one ordinary scene.'],
  ['A profession', 'Invent a job that only exists in your world. Follow someone doing it for one working day.'],
  ['Food and famine', 'Describe a meal that tells the reader how rich or poor a place is, without naming a price.'],
  ['How news travels', 'Messengers, birds, signal fires, rumours: write how news moves in your world and how fast.'],
  ['The other side of history', 'Retell a famous event of your world’s past from the side that lost.'],
  ['Forbidden knowledge', 'What are people in your world not allowed to learn? Write the first time your character learns it.'],
  ['Animals of the land', 'Invent a creature your characters take for granted, and show how daily life depends on it.'],
  ['Names and naming', 'How do people in your world get their names? Write a naming ceremony or the lack of one.'],
  ['Architecture', 'Describe how buildings in one region are made, and what that reveals about the weather, the wealth and the fear of the people.'],
  ['A calendar', 'Invent the months or seasons of your world and the saying attached to each.'],
  ['Belief', 'Write a prayer, a superstition or a curse in your world, and a character who only half believes it.'],
  ['The edges of the map', 'What do people believe lies beyond the known world? Write a traveller who has been and will not say.'],
  ['Technology, small', 'Invent one everyday tool unique to your world and write the scene where it breaks at the worst moment.'],
];

function rows(kind: PromptKind, list: Row[]): WritingPrompt[] {
  return list.map(([title, text], i) => ({ id: `${kind}-${String(i + 1).padStart(2, '0')}`, kind, title, text }));
}

export const PROMPTS: readonly WritingPrompt[] = Object.freeze([
  ...rows('plot', PLOT),
  ...rows('character', CHARACTER),
  ...rows('setting', SETTING),
  ...rows('dialogue', DIALOGUE),
  ...rows('conflict', CONFLICT),
  ...rows('world', WORLD),
]);

/** Prompts whose title or text contains every word of `query` (case and accents ignored). */
export function searchPrompts(query: string, kind: PromptKind | 'all' = 'all'): WritingPrompt[] {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  return PROMPTS.filter((p) => (kind === 'all' || p.kind === kind) && words.every((w) => fold(`${p.title} ${p.text}`).includes(w)));
}

/** The prompt of a local calendar day: the same all day on every device, a different one the next. */
export function promptOfTheDay(date: Date = new Date()): WritingPrompt {
  const day = Math.floor(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86_400_000);
  // A stride coprime with 100 walks every prompt before repeating, mixing the kinds day to day.
  return PROMPTS[(day * 37) % PROMPTS.length]!;
}
