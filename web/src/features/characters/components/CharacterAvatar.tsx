import { Avatar, type AvatarProps } from '@mantine/core';
import type { Character } from '@chronicler/schema';
import { usePictureSource } from '@/components/pictures/pictureSource';
import { initials } from '../model/character-form';
import { NODE_SHADES, nodeColor } from '../model/map-geometry';

interface CharacterAvatarProps extends Omit<AvatarProps, 'src' | 'color'> {
  character: Pick<Character, 'name' | 'avatarUrl' | 'avatar' | 'isProtagonist' | 'role'> & Partial<Pick<Character, 'seriesId'>>;
}

/** The character's portrait, or initials in the map's node colour when there is none (or it fails to load). */
export function CharacterAvatar({ character, ...props }: CharacterAvatarProps) {
  // The thumbnail of a chosen portrait (from the device), or a URL as before.
  const { src } = usePictureSource(character.avatarUrl || character.avatar || null, character.seriesId, 'thumb');
  return (
    <Avatar src={src} alt={character.name} color={NODE_SHADES[nodeColor(character)].key} variant="filled" {...props}>
      {initials(character.name)}
    </Avatar>
  );
}
