export { CharactersScreen } from './CharactersScreen';
