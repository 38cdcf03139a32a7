export { InspirationScreen } from './InspirationScreen';
export { PromptOfTheDay } from './PromptOfTheDay';
export { PROMPTS, promptOfTheDay, searchPrompts, type WritingPrompt } from './prompts';
