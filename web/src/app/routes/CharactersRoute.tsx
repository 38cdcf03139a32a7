import { CharactersScreen } from '@/features/characters';

export default function CharactersRoute() {
  return <CharactersScreen />;
}
