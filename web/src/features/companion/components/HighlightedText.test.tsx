import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { analyzeProse } from '@chronicler/companion';
import { HighlightedText } from './HighlightedText';

describe('HighlightedText with emphasis', () => {
  it('marks the finding on the source words and shows emphasis without its markers', () => {
    const text = 'The door *was opened* by the guard. He ran **quickly** home.';
    const { findings } = analyzeProse(text);
    render(
      <MantineProvider env="test">
        <HighlightedText text={text} findings={findings} />
      </MantineProvider>,
    );
    const shown = screen.getByTestId('analysed-text');
    expect(shown.textContent).toBe('The door was opened by the guard. He ran quickly home.');
    expect(shown.querySelector('mark[data-kind="passive"] em')?.textContent).toBe('was opened');
    expect(shown.querySelector('mark[data-kind="adverb"] strong')?.textContent).toBe('quickly');
  });
});
