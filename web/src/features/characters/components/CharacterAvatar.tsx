import { Avatar, type AvatarProps } from '@mantine/core';
import type { Character } from '@chronicler/schema';
import { initials } from '../model/character-form';
import { NODE_SHADES, nodeColor } from '../model/map-geometry';

interface CharacterAvatarProps extends Omit<AvatarProps, 'src' | 'color'> {
  character: Pick<Character, 'name' | 'avatarUrl' | 'avatar' | 'isProtagonist' | 'role'>;
}

/** The character's picture, or initials in the map's node colour when there is none (or it fails to load). */
export function CharacterAvatar({ character, ...props }: CharacterAvatarProps) {
  const src = character.avatarUrl || character.avatar || null;
  return (
    <Avatar src={src} alt={character.name} color={NODE_SHADES[nodeColor(character)].key} variant="filled" {...props}>
      {initials(character.name)}
    </Avatar>
  );
}
